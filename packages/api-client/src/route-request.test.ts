import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { defineRoute, Envelope } from '@hpc/contracts';
import { ApiClient } from './client';
import { routePath, routeRequest } from './route-request';

const Item = Type.Object({ id: Type.Integer(), name: Type.String() });
const IdParams = Type.Object({ id: Type.Integer() });
const Answer = Envelope(Item);
const Routes = {
  get: defineRoute({
    method: 'GET',
    path: '/items/:id',
    params: IdParams,
    query: Type.Object({ tags: Type.Optional(Type.Array(Type.String())) }),
    response: Answer,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/items',
    body: Type.Object({ name: Type.String(), paths: Type.Array(Type.String()) }),
    bodyAs: 'form',
    response: Answer,
  }),
  rename: defineRoute({ method: 'PUT', path: '/items/:id', params: IdParams, body: Item, response: Answer }),
  upload: defineRoute({
    method: 'PUT',
    path: '/items/:id/bytes',
    params: IdParams,
    query: Type.Object({ n: Type.Integer() }),
    bodyAs: 'bytes',
    response: Envelope(Type.Null()),
  }),
  files: defineRoute({ method: 'GET', path: '/files/*', params: Type.Object({ '*': Type.String() }) }),
};

/** A client whose `fetch` records each request and answers `answer`. */
function recording(answer: { status?: number; body: unknown }) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  }) as unknown as typeof globalThis.fetch;
  return { seen, client: new ApiClient({ baseUrl: 'http://svc', fetch }) };
}

describe('routePath', () => {
  it('fills path parameters URI-encoded, and the rest of a wildcard path segment by segment', () => {
    expect(routePath('/items/:id/x/:name', { id: 7, name: 'a b/c' })).toBe('/items/7/x/a%20b%2Fc');
    expect(routePath('/files/*', { '*': 'icons/中 1.svg' })).toBe('/files/icons/%E4%B8%AD%201.svg');
    expect(routePath('/plain')).toBe('/plain');
  });
  it('refuses a missing parameter instead of calling a wrong path', () => {
    expect(() => routePath('/items/:id', {})).toThrow(/"id" is missing/);
    expect(() => routePath('/files/*')).toThrow(/rest of the path/);
  });
});

describe('routeRequest', () => {
  it('sends the body as the declaration says: form, json or bytes', () => {
    const form = routeRequest(Routes.create, { body: { name: 'n', paths: ['/a', '/b'] } });
    expect(form).toEqual({
      path: '/items',
      options: { method: 'POST', query: undefined, form: { name: 'n', paths: ['/a', '/b'] } },
    });
    const json = routeRequest(
      Routes.rename,
      { params: { id: 3 }, body: { id: 3, name: 'm' } },
      { timeoutMs: 5 },
    );
    expect(json.options).toEqual({
      method: 'PUT',
      query: undefined,
      json: { id: 3, name: 'm' },
      timeoutMs: 5,
    });
    const bytes = Buffer.from('xyz');
    const raw = routeRequest(Routes.upload, { params: { id: 1 }, query: { n: 2 }, body: bytes });
    expect(raw).toMatchObject({
      path: '/items/1/bytes',
      options: { method: 'PUT', query: { n: 2 }, body: bytes },
    });
  });
});

describe('ApiClient with a declared route', () => {
  it('calls it typed: path, query and method from the declaration, the data of the envelope back', async () => {
    const { seen, client } = recording({ body: { code: '0', msg: 'success', data: { id: 7, name: 'x' } } });
    const item = await client.request(Routes.get, { params: { id: 7 }, query: { tags: ['a', 'b'] } });
    expect(item.name).toBe('x');
    expect(seen[0]!.url).toBe('http://svc/items/7?tags=a&tags=b');
    expect(seen[0]!.init.method).toBe('GET');
    const created = await client.route(Routes.create)({ body: { name: 'y', paths: ['/p'] } });
    expect(created.id).toBe(7);
    expect(seen[1]!.init.body).toBe('name=y&paths=%2Fp');
    expect((seen[1]!.init.headers as Record<string, string>)['content-type']).toMatch(/urlencoded/);
  });

  it('settles a refusal with call(), keeping the envelope code and status', async () => {
    const { client } = recording({ status: 409, body: { code: '1021', msg: 'exists', data: null } });
    const r = await client.call(Routes.rename, { params: { id: 1 }, body: { id: 1, name: 'z' } });
    expect(r).toMatchObject({ ok: false, status: 409, code: '1021', msg: 'exists' });
  });

  it('builds links and sends raw calls from the declaration too', async () => {
    const { seen, client } = recording({ body: 'bytes' });
    expect(client.url(Routes.files, { params: { '*': 'a/b.png' } })).toBe('http://svc/files/a/b.png');
    const res = await client.send(Routes.files, { params: { '*': 'c.png' } });
    expect(res.status).toBe(200);
    expect(seen[0]!.url).toBe('http://svc/files/c.png');
  });

  it('keeps the bound defaults and lets a call override them (deadline, cancel)', async () => {
    const never = (async (_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => {
        if (init.signal!.aborted) reject(new Error('aborted'));
        init.signal!.addEventListener('abort', () => reject(new Error('aborted')));
      })) as unknown as typeof globalThis.fetch;
    const client = new ApiClient({ fetch: never });
    const get = client.route(Routes.get, { timeoutMs: 10 });
    await expect(get({ params: { id: 1 } })).rejects.toMatchObject({ kind: 'timeout' });
    const controller = new AbortController();
    const pending = get({ params: { id: 1 } }, { timeoutMs: 0, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
  });
});
