import type { FastifyInstance } from 'fastify';
import { CommonCodes } from '@hpc/contracts';
import { AppError } from './app-error';
import { ServerKitText } from './messages';

/**
 * JSON bodies through Fastify's own parser (secure-json-parse: a `__proto__` or `constructor.prototype` key is
 * refused, so no handler ever sees a polluted object), with one refusal told apart: Fastify answers both a broken
 * body and a well-formed one naming such a key with "not valid JSON", which sent a client looking for a syntax error
 * it did not make. When plain JSON.parse reads the body (it makes such a key an own property, harmless here, and the
 * value is thrown away), the key was the reason, and the answer says so.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    void parse(req, body as string, (err: Error | null, value?: unknown) => {
      if (
        err &&
        (err as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' &&
        wellFormed(body as string)
      ) {
        done(
          new AppError(CommonCodes.invalidInput, ServerKitText.bodyForbiddenKey, { status: 400 }),
          undefined,
        );
        return;
      }
      done(err, value);
    });
  });
}

function wellFormed(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
