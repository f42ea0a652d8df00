import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createServer, type AppServer } from '@hpc/server-kit';
import { isWebPage } from '@hpc/contracts';
import type { PortalConfig } from './config';
import { openPortalDeps, type PortalDeps } from './deps';
import { registerFeatures } from './features';
import { seedDemo } from './seed';
import { STATIC_404_HTML } from './features/site/static-404';

/** Where the built SPA is: WEB_DIST, else apps/web/dist found from this file (source or bundled dist). */
export function webDistDir(config: PortalConfig): string {
  if (config.WEB_DIST) return path.resolve(config.WEB_DIST);
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '../../web/dist');
}

/** Security headers (helmet's defaults with the portal's content security policy). */
const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // Ant Design injects its CSS-in-JS as <style> elements.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Image previews come from the cluster's efile, which is another origin when scaled out.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      // efile instances may live on other hosts when scaled out; the fast-transfer client listens on loopback.
      connectSrc: ["'self'", 'https:', 'http://127.0.0.1:*', 'wss://127.0.0.1:*', 'ws://127.0.0.1:*'],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers @fastify/helmet sets with `options`: asked once of a throwaway server. They depend on the options
 * alone (no nonces are used), so every answer can carry the same ones.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    probe.get('/', (_req, reply) => reply.send(''));
    const res = await probe.inject('/');
    const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
    return Object.fromEntries(
      Object.entries(res.headers)
        .filter(([name]) => !own.has(name))
        .map(([name, value]) => [name, String(value)]),
    );
  } finally {
    await probe.close();
  }
}

/**
 * Registers the portal on an existing server: security headers, cookies, OpenAPI at /docs, every feature, and the
 * built SPA. The all-in-one entry calls this on the same server that mounts the efile instances.
 */
export async function registerPortal(app: AppServer, deps: PortalDeps): Promise<void> {
  // The same security headers on every answer, computed once: @fastify/helmet builds helmet's middleware again for
  // every request (a fifth of a cached catalogue answer's time, docs/PERFORMANCE.md "Catalogue hot path").
  const headers = await helmetHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', (_req, reply, done) => {
    void reply.headers(headers);
    done();
  });
  await app.register(cookie);
  await app.register(swagger, {
    openapi: { info: { title: 'HPC portal API', version: '0.1.0' } },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await registerFeatures(app, deps);

  const dist = webDistDir(deps.config);
  if (fs.existsSync(path.join(dist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The `.br` and `.gz` siblings the web build writes (apps/web/scripts/precompress.mjs), to a browser that
      // takes them; the file as it is otherwise.
      preCompressed: true,
      // Without this, `send` replaces the header set below with its own `public, max-age=0`.
      cacheControl: false,
      setHeaders(res, sent) {
        const file = sent.replace(/\.(br|gz)$/, '');
        // @fastify/static does not say that the answer depends on Accept-Encoding; a shared cache (a proxy, a CDN)
        // must know, or it hands brotli to a client that cannot read it.
        res.setHeader('vary', 'Accept-Encoding');
        // Vite names assets by content hash: cache them for a year. index.html (also served by the SPA fallback)
        // is always revalidated, so a new release is seen at once. Other unhashed public files (the favicon) for a
        // day: with the default max-age=0 the browser revalidated the favicon on every in-app navigation.
        if (file.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else if (file.endsWith(`${path.sep}index.html`)) res.setHeader('cache-control', 'no-cache');
        else res.setHeader('cache-control', 'public, max-age=86400');
      },
    });
  }
}

/**
 * Reads the SPA's index.html (null when the web app is not built, e.g. in route tests). The text is kept while the
 * file's mtime and size stay the same: a rebuild under a running portal (`npm run build` beside `npm start`) names new
 * hashed assets, and an index read once at start-up would point every page at scripts that no longer exist.
 */
export function spaIndexReader(config: PortalConfig): () => Buffer | null {
  const file = path.join(webDistDir(config), 'index.html');
  let cached: { key: string; html: Buffer } | null = null;
  return () => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return null;
    }
    const key = `${stat.mtimeMs}:${stat.size}`;
    if (cached?.key !== key) {
      try {
        cached = { key, html: fs.readFileSync(file) };
      } catch {
        return cached?.html ?? null;
      }
    }
    return cached.html;
  };
}

/** Builds the standalone portal: used by `server.ts` and by route tests through `app.inject()`. */
export async function buildPortal(config: PortalConfig): Promise<{ app: AppServer; deps: PortalDeps }> {
  const app = createServer({
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    spaIndexHtml: spaIndexReader(config),
    // An address the web's route table does not know answers 404 with the static page (issue 25 §3.8).
    isSpaPage: isWebPage,
    spaNotFoundHtml: STATIC_404_HTML,
  });
  const deps = await openPortalDeps(config);
  app.addHook('onClose', () => deps.close());
  // On an empty database only: each feature's seed leaves existing data alone.
  if (config.SEED_DEMO) await seedDemo(deps);
  await registerPortal(app, deps);
  return { app, deps };
}
