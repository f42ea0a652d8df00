import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { defineRoute, Envelope } from '@hpc/contracts';
import { createServer } from './fastify';
import { ok } from './envelope-plugin';
import { installFormParser } from './form-body';
import { addRoute, routeSchema } from './add-route';

const Routes = {
  rename: defineRoute({
    method: 'POST',
    path: '/items/:id/rename',
    params: Type.Object({ id: Type.Integer() }),
    query: Type.Object({ dry: Type.Optional(Type.Boolean()) }),
    body: Type.Object({ names: Type.Array(Type.String({ minLength: 1 })) }),
    bodyAs: 'form',
    response: Envelope(
      Type.Object({ id: Type.Integer(), names: Type.Array(Type.String()), dry: Type.Boolean() }),
    ),
    tags: ['items'],
  }),
  moved: defineRoute({ method: 'GET', path: '/moved', responses: { 302: Type.Null() } }),
};

function server() {
  const app = createServer({ logLevel: 'silent' });
  installFormParser(app);
  addRoute(app, Routes.rename, async (req) =>
    ok({ id: req.params.id, names: req.body.names, dry: req.query.dry ?? false }),
  );
  addRoute(app, Routes.moved, { config: { note: 'kept' } }, async (req, reply) =>
    reply.redirect(`/there?${String((req.routeOptions.config as { note?: string }).note)}`, 302),
  );
  return app;
}

describe('addRoute', () => {
  it('registers the declared method and path, validating and typing params, query and a form body', async () => {
    const app = server();
    const r = await app.inject({
      method: 'POST',
      url: '/items/4/rename?dry=true',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'names=a&names=b',
    });
    expect(r.json()).toEqual({ code: '0', msg: 'success', data: { id: 4, names: ['a', 'b'], dry: true } });
    // JSON is accepted as well (the spec's clients send either); the answer is the same envelope.
    const j = await app.inject({ method: 'POST', url: '/items/5/rename', payload: { names: ['c'] } });
    expect(j.json().data).toEqual({ id: 5, names: ['c'], dry: false });
    expect((await app.inject({ method: 'GET', url: '/items/4/rename' })).statusCode).toBe(404);
  });

  it('refuses bad input with the spec codes, before the handler', async () => {
    const app = server();
    const missing = await app.inject({ method: 'POST', url: '/items/4/rename', payload: {} });
    expect([missing.statusCode, missing.json().code]).toEqual([400, '1003']);
    const bad = await app.inject({ method: 'POST', url: '/items/x/rename', payload: { names: ['a'] } });
    expect([bad.statusCode, bad.json().code]).toEqual([400, '1004']);
  });

  it('passes the server-only options through (route config, hooks)', async () => {
    const r = await server().inject({ method: 'GET', url: '/moved' });
    expect([r.statusCode, r.headers.location]).toEqual([302, '/there?kept']);
  });

  it('gives Fastify the declaration under its own names, other statuses beside the 200 answer', () => {
    expect(Object.keys(routeSchema(Routes.rename)).sort()).toEqual([
      'body',
      'params',
      'querystring',
      'response',
      'tags',
    ]);
    expect(routeSchema(Routes.moved)).toEqual({ response: { 302: Routes.moved.responses[302] } });
  });
});
