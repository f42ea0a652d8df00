import { AppRoutes, CatalogFileRoutes, ImageRoutes, ModelRoutes } from '@hpc/contracts';
import { addRoute, ok, type AppServer } from '@hpc/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogService } from './catalog.service';

/**
 * Catalogue lists, serialized once per answer: the index store keeps whole answers in its LRU (and replaces them,
 * never changes them, when the catalogue changes), so the envelope of an answer object is the same bytes every
 * time it is served. Serializing it again (and measuring the string for content-length) was the largest share of a
 * cached answer's time after the socket write (docs/PERFORMANCE.md "Catalogue hot path"). The route's own response
 * schema still does the serializing, so the bytes are what `ok(answer)` gave before. Weak keys: a serialized answer
 * goes when its answer leaves the LRU.
 */
const serialized = new WeakMap<object, Buffer>();
function sendAnswer(reply: FastifyReply, answer: object) {
  let body = serialized.get(answer);
  if (!body) {
    body = Buffer.from(reply.serialize(ok(answer)) as string);
    serialized.set(answer, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}

/** The image centre's calls (spec §7 paths). */
export function imageRoutes(app: AppServer, service: CatalogService): void {
  addRoute(app, ImageRoutes.acceleratorTypes, async () => ok(await service.acceleratorTypes()));
  addRoute(app, ImageRoutes.labels, async (req) =>
    ok(await service.labelGroups('image', req.query.acceleratorType || undefined)),
  );
  addRoute(app, ImageRoutes.categories, async (req) =>
    ok(await service.imageCategories(req.body.acceleratorType || undefined)),
  );
  addRoute(app, ImageRoutes.list, async (req, reply) =>
    sendAnswer(reply, await service.listImages(req.body)),
  );
  addRoute(app, ImageRoutes.detail, async (req) =>
    ok(await service.imageDetail(req.query.acceleratorType, req.query.imageName)),
  );
  addRoute(app, ImageRoutes.descPath, async (req) => ok(await service.imageDescPath(req.query)));
  addRoute(app, ImageRoutes.fileView, async (req) => ok(await service.readMarkdown(req.query.descFilePath)));
}

/** The model zoo's calls (spec §7 paths). */
/** Who asks for a count: the logged-in user, else the address (`req.ip`, the proxy's view of it behind one) by `callerKey`. */
export interface Downloads {
  downloader: (req: FastifyRequest) => Promise<string>;
  once: (key: string) => Promise<boolean>;
}

export function modelRoutes(app: AppServer, service: CatalogService, downloads: Downloads): void {
  addRoute(app, ModelRoutes.labels, async () => ok(await service.labelGroups('model')));
  addRoute(app, ModelRoutes.categories, async () => ok(await service.categories('model')));
  addRoute(app, ModelRoutes.list, async (req, reply) =>
    sendAnswer(reply, await service.listModels(req.body)),
  );
  addRoute(app, ModelRoutes.fileView, async (req) => ok(await service.readMarkdown(req.query.filePath)));
  addRoute(app, ModelRoutes.detail, async (req) => ok(await service.modelDetail(req.params.id)));
  addRoute(app, ModelRoutes.count, async (req) =>
    ok(await service.countModelDownload(req.params.id, await downloads.downloader(req), downloads.once)),
  );
}

/** The application centre's calls, shaped like the model zoo's. */
export function appRoutes(app: AppServer, service: CatalogService): void {
  addRoute(app, AppRoutes.labels, async () => ok(await service.labelGroups('app')));
  addRoute(app, AppRoutes.categories, async () => ok(await service.categories('app')));
  addRoute(app, AppRoutes.list, async (req, reply) => sendAnswer(reply, await service.listApps(req.body)));
  addRoute(app, AppRoutes.fileView, async (req) => ok(await service.readMarkdown(req.query.filePath)));
  addRoute(app, AppRoutes.detail, async (req) => ok(await service.appDetail(req.params.id)));
}

/** SVG is served as an image but could carry script if opened directly: this policy forbids any. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Icons and the images of the markdown descriptions; image types only, never sniffed. */
export function catalogFileRoutes(app: AppServer, service: CatalogService): void {
  addRoute(app, CatalogFileRoutes.file, async (req, reply) => {
    const file = await service.openCatalogFile(req.params['*']);
    reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=3600');
    if (file.contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_CSP);
    return reply.send(file.stream);
  });
}
