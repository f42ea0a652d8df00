import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorCodes,
  ErrorMessagesZh,
  localisedErrorMessage,
  CommonCodes,
  type ErrorCode,
  type ServerText,
} from '@hpc/contracts';
import { AppError } from './app-error';
import { ServerKitText } from './messages';
import { validationTextZh } from './validation-text';

export interface EnvelopeOptions {
  /** The SPA's index.html, served for browser navigations that match no route; null when not built. */
  spaIndexHtml?: () => Buffer | null;
  /**
   * Whether the SPA has a page at a path (no query). A browser navigation to any other path is answered 404 with
   * `spaNotFoundHtml` instead of the SPA (issue 25 §3.8). Without it every navigation gets the SPA.
   */
  isSpaPage?: (pathname: string) => boolean;
  /** The static page for an address the SPA does not know. */
  spaNotFoundHtml?: string;
}

/** Wraps a success value in the envelope. Routes return `ok(data)`. */
export const ok = <T>(data: T) => ({ code: '0' as const, msg: 'success', data });

/**
 * A refusal's message in the request's language when the server has it (issue 13 §1.3: the web shows some server
 * messages as they are): the occasion's Chinese (`zh`) or the registry's; `Content-Language` on the reply says which
 * language it is in. The error envelope uses it, and so do answers that carry a code with HTTP 200 (the fast-transfer
 * web server's and the relay's).
 */
export function localisedRefusal(
  req: FastifyRequest,
  reply: FastifyReply,
  code: string,
  msg: string,
  zh: string | null = null,
): string {
  const local = localisedErrorMessage(code, msg, req.headers['accept-language'], zh);
  void reply.header('content-language', local.lang);
  return local.msg;
}

/** Sends an error envelope, its message localised (`localisedRefusal`). */
function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  msg: string,
  data: unknown,
  zh: string | null = null,
) {
  return reply.status(status).send({ code, msg: localisedRefusal(req, reply, code, msg, zh), data });
}

/** The media type a request says its body is (no parameters), short enough to be named in a message. */
function mediaTypeOf(req: FastifyRequest): string | null {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === '' ? null : type.slice(0, 100);
}

/**
 * Fastify's own refusals of a request (its body parsers', before any route runs; lib/errors.js), each as the
 * envelope's status, code and a text in both languages (null: the registry's text of the code). Fastify's messages
 * are English only, so none of them is passed on.
 */
function frameworkRefusal(
  err: FastifyError,
  req: FastifyRequest,
): { status: number; code: ErrorCode; text: ServerText | null } | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: CommonCodes.tooLarge, text: null };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = mediaTypeOf(req);
      const text = type ? ServerKitText.unsupportedMediaType(type) : ServerKitText.missingMediaType;
      return { status: 415, code: CommonCodes.invalidInput, text };
    }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 415, code: CommonCodes.invalidInput, text: ServerKitText.emptyJsonBody };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: CommonCodes.invalidInput, text: ServerKitText.bodyNotJson };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: CommonCodes.invalidInput, text: ServerKitText.bodyLengthMismatch };
    default:
      return null;
  }
}

/**
 * Fastify's refusals before routing (`frameworkErrors`: an address that is no valid URL, `/api/%zz`), which its error
 * handler never sees: the envelope in the request's language, as every other refusal, instead of Fastify's own
 * English shape.
 */
export function envelopeFrameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_BAD_URL') {
    const text = ServerKitText.badUrl;
    void sendError(req, reply, 400, CommonCodes.invalidInput, text.en, null, text.zh);
    return;
  }
  req.log.error({ err }, 'framework error');
  void sendError(req, reply, 500, '500', ErrorCodes['500'].en, null);
}

/**
 * Installs the error and not-found handlers that turn everything into the envelope of DESIGN.md §6:
 * AppError → its code; schema validation → "1003" (missing field) or "1004" (bad value); body too large → "1011";
 * Fastify's other refusals of a body → "1004" in the request's language (`frameworkRefusal`); anything else → "500"
 * with the cause logged, never leaked.
 * Call it on the root instance (not inside an encapsulated plugin) so every route is covered.
 */
export function installEnvelopeHandlers(app: FastifyInstance, opts: EnvelopeOptions = {}): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err }, 'request failed');
      return sendError(req, reply, err.status, err.code, err.message, err.data, err.zh);
    }
    if (err.validation) {
      const missing = err.validation.some((v) => v.keyword === 'required');
      const code = missing ? CommonCodes.incompleteParams : CommonCodes.invalidInput;
      const where = err.validationContext ?? 'request';
      const zh = `${ErrorMessagesZh[code]}（${validationTextZh(where, err.validation)}）`;
      return sendError(
        req,
        reply,
        400,
        code,
        // Fastify's message begins with where (`body/n must be >= 1`): not said twice.
        `${ErrorCodes[code].en}: ${err.message.startsWith(where) ? '' : `${where} `}${err.message}`,
        // Where and which rule, no more: Ajv's own `message` is English whatever the reader's language (the
        // envelope's msg says it in theirs) and its `schemaPath` is the server's internals.
        {
          errors: err.validation.map((v) => ({
            field: `${where}${v.instancePath}`,
            keyword: v.keyword,
            params: v.params,
          })),
        },
        zh,
      );
    }
    const framework = frameworkRefusal(err, req);
    if (framework) {
      const { status, code, text } = framework;
      return sendError(req, reply, status, code, text?.en ?? ErrorCodes[code].en, null, text?.zh ?? null);
    }
    if (err.statusCode === 413) {
      return sendError(req, reply, 413, CommonCodes.tooLarge, ErrorCodes[CommonCodes.tooLarge].en, null);
    }
    if (err.statusCode === 429) {
      return sendError(req, reply, 429, '429', ErrorCodes['429'].en, null);
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Another refusal of a plugin's, in its own English: a Chinese reader gets the registry's text of the code.
      const code = CommonCodes.invalidInput;
      return sendError(req, reply, err.statusCode, code, err.message, null, ErrorMessagesZh[code]);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 500, '500', ErrorCodes['500'].en, null);
  });
  app.setNotFoundHandler((req, reply) => {
    // A browser navigating to a client-side route (or reloading one) gets the single-page app, and to an address
    // the app has no page for the static 404 page (when the server knows the app's pages); API callers get the
    // envelope.
    const html = opts.spaIndexHtml?.();
    const accept = req.headers.accept ?? '';
    const pathname = req.url.split('?')[0] ?? '/';
    const read = req.method === 'GET' || req.method === 'HEAD';
    // Whether the app has a page here (undefined: the server does not know the app's pages).
    const page = opts.isSpaPage?.(pathname);
    // A page the app has is the page for any client that takes HTML: `curl https://portal/` and a monitor's HEAD
    // send `*/*` (or nothing), not `text/html`, and got the API's 404 for the home page.
    const takesHtml = accept === '' || /\*\/\*|text\/(\*|html)/.test(accept);
    if (html && read && (accept.includes('text/html') || (page === true && takesHtml))) {
      if (page === false && opts.spaNotFoundHtml !== undefined) {
        // Never cached, so a later release that adds the page is seen at once.
        return reply
          .status(404)
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(opts.spaNotFoundHtml);
      }
      return reply
        .status(200)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html);
    }
    return sendError(req, reply, 404, '404', ErrorCodes['404'].en, null);
  });
}
