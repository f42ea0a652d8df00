import { asTextFields } from './validators';
import type { FastifyInstance } from 'fastify';

/**
 * `a=1&b=2&b=3&c[]=4` → `{ a: '1', b: ['2', '3'], c: ['4'] }`. The spec's clients post forms with array params
 * repeated (spec §7); jQuery-style `key[]` is accepted too, and always yields an array.
 */
export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [rawKey, v] of new URLSearchParams(body)) {
    const bracketed = rawKey.endsWith('[]');
    const k = bracketed ? rawKey.slice(0, -2) : rawKey;
    const prev = out[k];
    if (prev === undefined) out[k] = bracketed ? [v] : v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Accepts `application/x-www-form-urlencoded` bodies in this scope, parsed by `parseForm`. */
export function installFormParser(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, asTextFields(parseForm(String(body)))),
  );
}
