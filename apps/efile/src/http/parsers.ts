import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asTextFields, installFormParser, isTextFields } from '@hpc/server-kit';

/**
 * Body parsing of the efile scope: form-urlencoded as the spec's clients send it (repeated keys and `key[]` become
 * arrays), and a pass-through for any other type so streaming routes (PUT, the chunk upload's multipart) read
 * `req.raw` themselves.
 */
export function installParsers(app: FastifyInstance): void {
  installFormParser(app);
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));
  // The spec's POST calls put some params on the query string (`/remove.action?recursive=true`): merge them into
  // the body before validation so one body schema covers both.
  app.addHook('preValidation', async (req: FastifyRequest) => {
    if (req.method !== 'POST' || !req.routeOptions.schema?.body) return;
    if (req.headers['content-type']?.startsWith('multipart/')) return;
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    const query = req.query as Record<string, unknown>;
    const merged = { ...query, ...body };
    // The query's fields are text: a body that took some is validated as text fields (a form's rules), a JSON body
    // alone keeps its types.
    req.body = isTextFields(body) || Object.keys(query).length > 0 ? asTextFields(merged) : merged;
  });
}
