import { Stream } from 'node:stream';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyReply,
  type FastifyServerOptions,
  type FastifyRequest,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CommonCodes } from '@hpc/contracts';
import { AppError } from './app-error';
import { clientErrorHandler } from './client-errors';
import { buildValidators } from './validators';
import {
  envelopeFrameworkErrors,
  installEnvelopeHandlers,
  localisedRefusal,
  type EnvelopeOptions,
} from './envelope-plugin';
import { ServerKitText } from './messages';
import { SECRET_HEADER_PATHS, redactUrl } from './redact';
import { installJsonBodyParser } from './json-body';
import { installSlowBodyGuard, type SlowBodyOptions } from './slow-body';
import { trustedPeer } from './trust-proxy';

export interface ServerOptions extends EnvelopeOptions {
  /** pino level; 'silent' in tests. */
  logLevel?: string;
  /** Maximum JSON/form body, bytes. */
  bodyLimit?: number;
  /** `TRUST_PROXY` (trust-proxy.ts): false, true, or the proxies' addresses and CIDR blocks. */
  trustProxy?: boolean | string;
  /** Where log lines go (tests capture them to check that no credential is logged); stdout by default. */
  logStream?: { write(line: string): void };
  /** The least a body must bring per window (tests shorten the window). */
  slowBody?: SlowBodyOptions;
}

/**
 * The longest path parameter the router takes: a file name of 255 bytes (the usual file-system limit) with every byte
 * percent-encoded is 765 characters (`PUT /linux/put/:name`); Fastify's default of 100 refused names of 34 Chinese
 * characters. A longer one is refused as invalid input (414), no longer a 500.
 */
export const MAX_PARAM_LENGTH = 1024;

/** Fastify's refusals before routing: a parameter over MAX_PARAM_LENGTH here, the others in envelope-plugin.ts. */
function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  if (err.code !== 'FST_ERR_MAX_PARAM_LENGTH') return envelopeFrameworkErrors(err, req, reply);
  const { en, zh } = ServerKitText.paramTooLong(MAX_PARAM_LENGTH);
  const code = CommonCodes.invalidInput;
  void reply.status(414).send({ code, msg: localisedRefusal(req, reply, code, en, zh), data: null });
}

/**
 * Refuses a number that is not finite wherever a request carries one. Ajv (8.x) coerces the strings `Infinity` and
 * `1e400` of a query or form to Infinity for an `integer` or `number` schema, and then skips `minimum` and `maximum`
 * for it: `pageNum=Infinity` reached the handlers, and failed in SQLite or in the answer's serialization (500). JSON
 * bodies cannot carry one past the schema (its type check wants a finite number); query, parameters and forms are
 * flat, so their values and arrays of values are all there is to look at.
 */
async function refuseNonFiniteNumbers(req: FastifyRequest) {
  const parts = { querystring: req.query, params: req.params, body: req.body };
  for (const [where, part] of Object.entries(parts)) {
    // A route's raw body may be a stream, whose fields are its own.
    if (!isFields(part)) continue;
    for (const [key, value] of Object.entries(part)) {
      const values: unknown[] = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === 'number' && !Number.isFinite(v)))
        throw new AppError(CommonCodes.invalidInput, ServerKitText.notFiniteNumber(`${where}/${key}`));
    }
  }
}

/** Fields by name: a parsed query, parameters or body (the query parser's objects have a prototype of their own). */
const isFields = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v) && !(v instanceof Stream);

/**
 * A Fastify instance with the TypeBox type provider, the envelope error handlers and one JSON log line per request
 * (DESIGN.md §4: pino, one line per request, so Fastify's own two lines are switched off).
 */
export function createServer(opts: ServerOptions = {}) {
  const proxy = trustedPeer(opts.trustProxy);
  const serverOpts: FastifyServerOptions = {
    logger: {
      level: opts.logLevel ?? 'info',
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      // No credential in any line: URLs are redacted wherever a request is logged, credential headers are censored.
      redact: { paths: SECRET_HEADER_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), id: req.id }),
      },
    },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Behind a proxy, one hop is trusted, and only when the peer is that proxy: the client's address is the one the
    // proxy saw and appended to X-Forwarded-For, never an entry the client wrote itself (with `true` Fastify took
    // the leftmost, the client's own words, which let anyone pick the address the login and share-code throttles
    // count), nor one another local account wrote connecting past the proxy.
    trustProxy: proxy ? (address: string, hop: number) => hop < 1 && proxy(address) : false,
    // Array params are repeated in query strings (spec §7), so a single value must still become an array. Only for
    // what arrives as text: a JSON body keeps its types (validators.ts).
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true } },
    schemaController: { compilersFactory: buildValidators() },
  };
  const app = Fastify(serverOpts).withTypeProvider<TypeBoxTypeProvider>();
  installEnvelopeHandlers(app, opts);
  installJsonBodyParser(app);
  installSlowBodyGuard(app, opts.slowBody);
  app.addHook('preHandler', refuseNonFiniteNumbers);
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      {
        method: req.method,
        url: redactUrl(req.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
  return app;
}

export type AppServer = ReturnType<typeof createServer>;
