import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCodes } from '@hpc/contracts';
import { AppError } from './app-error';

export interface EnvelopeOptions {
  /** The SPA's index.html, served for browser navigations that match no route; null when not built. */
  spaIndexHtml?: () => Buffer | null;
}

/** Wraps a success value in the envelope. Routes return `ok(data)`. */
export const ok = <T>(data: T) => ({ code: '0' as const, msg: 'success', data });

/**
 * Installs the error and not-found handlers that turn everything into the envelope of DESIGN.md §6:
 * AppError → its code; schema validation → "1003" (missing field) or "1004" (bad value); body too large → "1011";
 * anything else → "500" with the cause logged, never leaked.
 * Call it on the root instance (not inside an encapsulated plugin) so every route is covered.
 */
export function installEnvelopeHandlers(app: FastifyInstance, opts: EnvelopeOptions = {}): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err }, 'request failed');
      return reply.status(err.status).send({ code: err.code, msg: err.message, data: err.data });
    }
    if (err.validation) {
      const missing = err.validation.some((v) => v.keyword === 'required');
      const code = missing ? '1003' : '1004';
      const where = err.validationContext ?? 'request';
      return reply.status(400).send({
        code,
        msg: `${ErrorCodes[code].en}: ${where} ${err.message}`,
        data: { errors: err.validation },
      });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.status(413).send({ code: '1011', msg: ErrorCodes['1011'].en, data: null });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(415).send({ code: '1004', msg: err.message, data: null });
    }
    if (err.statusCode === 429) {
      return reply.status(429).send({ code: '429', msg: ErrorCodes['429'].en, data: null });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ code: '1004', msg: err.message, data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: '500', msg: ErrorCodes['500'].en, data: null });
  });
  app.setNotFoundHandler((req, reply) => {
    // A browser navigating to a client-side route (or reloading one) gets the single-page app, which shows its
    // own 404 page for unknown routes; API callers get the envelope.
    const html = opts.spaIndexHtml?.();
    if (html && req.method === 'GET' && (req.headers.accept ?? '').includes('text/html')) {
      return reply
        .status(200)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html);
    }
    return reply.status(404).send({ code: '404', msg: ErrorCodes['404'].en, data: null });
  });
}
