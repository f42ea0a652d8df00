import { Type } from 'typebox';
import {
  AcceleratorTypesResponse,
  AppDetailResponse,
  AppListBody,
  AppListResponse,
  CatalogFileParams,
  CatalogIdParams,
  CategoriesResponse,
  CategoryListBody,
  DescPathQuery,
  DescPathResponse,
  DownloadCountResponse,
  FileViewQuery,
  ImageDetailQuery,
  ImageDetailResponse,
  ImageFileViewQuery,
  ImageLabelListQuery,
  ImageListBody,
  ImageListResponse,
  LabelGroupsResponse,
  MarkdownResponse,
  ModelDetailResponse,
  ModelListBody,
  ModelListResponse,
} from '@hpc/contracts';
import { ok, type AppServer } from '@hpc/server-kit';
import type { FastifyReply } from 'fastify';
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

const image = { tags: ['image centre'] };
const model = { tags: ['model zoo'] };
const app_ = { tags: ['application centre'] };

/** The image centre's calls (spec §7 paths). */
export function imageRoutes(app: AppServer, service: CatalogService): void {
  app.get(
    '/image-center/image/acceleratorType/list',
    { schema: { ...image, response: { 200: AcceleratorTypesResponse } } },
    async () => ok(await service.acceleratorTypes()),
  );
  app.get(
    '/image-center/image/label/list',
    { schema: { ...image, querystring: ImageLabelListQuery, response: { 200: LabelGroupsResponse } } },
    async (req) => ok(await service.labelGroups('image', req.query.acceleratorType || undefined)),
  );
  app.post(
    '/image-center/image/category/list',
    { schema: { ...image, body: CategoryListBody, response: { 200: CategoriesResponse } } },
    async (req) => ok(await service.imageCategories(req.body.acceleratorType || undefined)),
  );
  app.post(
    '/image-center/image/list',
    { schema: { ...image, body: ImageListBody, response: { 200: ImageListResponse } } },
    async (req, reply) => sendAnswer(reply, await service.listImages(req.body)),
  );
  app.get(
    '/image-center/image/detail',
    { schema: { ...image, querystring: ImageDetailQuery, response: { 200: ImageDetailResponse } } },
    async (req) => ok(await service.imageDetail(req.query.acceleratorType, req.query.imageName)),
  );
  app.get(
    '/image-center/image/desc/path',
    { schema: { ...image, querystring: DescPathQuery, response: { 200: DescPathResponse } } },
    async (req) => ok(await service.imageDescPath(req.query)),
  );
  app.get(
    '/image-center/image/file/view',
    { schema: { ...image, querystring: ImageFileViewQuery, response: { 200: MarkdownResponse } } },
    async (req) => ok(await service.readMarkdown(req.query.descFilePath)),
  );
}

/** The model zoo's calls (spec §7 paths). */
export function modelRoutes(app: AppServer, service: CatalogService): void {
  app.get(
    '/model-zoo/label/list',
    { schema: { ...model, response: { 200: LabelGroupsResponse } } },
    async () => ok(await service.labelGroups('model')),
  );
  app.post(
    '/model-zoo/model/category/list',
    { schema: { ...model, response: { 200: CategoriesResponse } } },
    async () => ok(await service.categories('model')),
  );
  app.post(
    '/model-zoo/model/list',
    { schema: { ...model, body: ModelListBody, response: { 200: ModelListResponse } } },
    async (req, reply) => sendAnswer(reply, await service.listModels(req.body)),
  );
  app.get(
    '/model-zoo/model/file/view',
    { schema: { ...model, querystring: FileViewQuery, response: { 200: MarkdownResponse } } },
    async (req) => ok(await service.readMarkdown(req.query.filePath)),
  );
  app.get(
    '/model-zoo/model/:id',
    { schema: { ...model, params: CatalogIdParams, response: { 200: ModelDetailResponse } } },
    async (req) => ok(await service.modelDetail(req.params.id)),
  );
  app.post(
    '/model-zoo/model/count/:id',
    { schema: { ...model, params: CatalogIdParams, response: { 200: DownloadCountResponse } } },
    async (req) => ok(await service.countModelDownload(req.params.id)),
  );
}

/** The application centre's calls, shaped like the model zoo's. */
export function appRoutes(app: AppServer, service: CatalogService): void {
  app.get(
    '/app-center/label/list',
    { schema: { ...app_, response: { 200: LabelGroupsResponse } } },
    async () => ok(await service.labelGroups('app')),
  );
  app.post(
    '/app-center/app/category/list',
    { schema: { ...app_, response: { 200: CategoriesResponse } } },
    async () => ok(await service.categories('app')),
  );
  app.post(
    '/app-center/app/list',
    { schema: { ...app_, body: AppListBody, response: { 200: AppListResponse } } },
    async (req, reply) => sendAnswer(reply, await service.listApps(req.body)),
  );
  app.get(
    '/app-center/app/file/view',
    { schema: { ...app_, querystring: FileViewQuery, response: { 200: MarkdownResponse } } },
    async (req) => ok(await service.readMarkdown(req.query.filePath)),
  );
  app.get(
    '/app-center/app/:id',
    { schema: { ...app_, params: CatalogIdParams, response: { 200: AppDetailResponse } } },
    async (req) => ok(await service.appDetail(req.params.id)),
  );
}

/** SVG is served as an image but could carry script if opened directly: this policy forbids any. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Icons and the images of the markdown descriptions; image types only, never sniffed. */
export function catalogFileRoutes(app: AppServer, service: CatalogService): void {
  app.get(
    '/catalog-files/*',
    {
      schema: {
        tags: ['catalogue files'],
        params: CatalogFileParams,
        response: { 200: Type.Unsafe<unknown>({ type: 'string', format: 'binary' }) },
      },
    },
    async (req, reply) => {
      const file = await service.openCatalogFile(req.params['*']);
      reply
        .header('content-type', file.contentType)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=3600');
      if (file.contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_CSP);
      return reply.send(file.stream);
    },
  );
}
