import { describe, expect, it } from 'vitest';
import { stripRouteSchemas } from './strip-route-schemas';

describe('stripRouteSchemas (the web build of the contracts route tables)', () => {
  it('drops the schemas of each defineRoute and keeps what a client sends by', () => {
    const code = [
      "import { defineRoute } from './route';",
      "import { Q, B, R } from './efile';",
      'export const T = {',
      "  a: defineRoute({ method: 'GET', path: '/a/:id', params: P, query: Q, response: R, tags }),",
      "  b: defineRoute({ method: 'POST', path: '/b', body: B, bodyAs: 'form', responses: { 302: N } }),",
      '};',
    ].join('\n');
    const out = stripRouteSchemas(code);
    expect(out).toContain("defineRoute({ method: 'GET', path: '/a/:id', params: undefined, query: undefined");
    expect(out).toContain('response: undefined, tags })');
    expect(out).toContain("body: undefined, bodyAs: 'form', responses: undefined })");
    for (const name of ['Q,', 'B,', 'R,', 'N }', 'P,'])
      expect(out.split('\n').slice(2).join('\n')).not.toContain(name);
  });

  it('refuses a declaration that is not an object literal, rather than keep its schemas unseen', () => {
    expect(() => stripRouteSchemas('export const a = defineRoute(decl);', 'x.routes.ts')).toThrow(
      /x\.routes\.ts: defineRoute must be given an object literal/,
    );
  });

  it('leaves other code alone', () => {
    const code = 'export const a = other({ query: Q });\nexport const b = { response: R };\n';
    expect(stripRouteSchemas(code)).toBe(code);
  });
});
