import Fastify, { LogController, type FastifyServerOptions, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { envelopeFrameworkErrors, installEnvelopeHandlers, type EnvelopeOptions } from './envelope-plugin';
import { SECRET_HEADER_PATHS, redactUrl } from './redact';
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
    frameworkErrors: envelopeFrameworkErrors,
    // Behind a proxy, one hop is trusted, and only when the peer is that proxy: the client's address is the one the
    // proxy saw and appended to X-Forwarded-For, never an entry the client wrote itself (with `true` Fastify took
    // the leftmost, the client's own words, which let anyone pick the address the login and share-code throttles
    // count), nor one another local account wrote connecting past the proxy.
    trustProxy: proxy ? (address: string, hop: number) => hop < 1 && proxy(address) : false,
    // Array params are repeated in query strings (spec §7), so a single value must still become an array.
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true } },
  };
  const app = Fastify(serverOpts).withTypeProvider<TypeBoxTypeProvider>();
  installEnvelopeHandlers(app, opts);
  installSlowBodyGuard(app, opts.slowBody);
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
