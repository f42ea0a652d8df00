import { Type, type Static } from 'typebox';
import { Envelope } from './envelope';
import { MAX_PAGE_NUM, Page } from './common';
import { Limits } from './limits';
import { AppJobTemplate } from './jobs';

/**
 * Catalogue contracts: image centre, model zoo, application centre (spec §2, §3, §7). Every catalogue item carries
 * both languages, so switching the interface language needs no new request.
 */

/** A label as cards and filters show it: `value` is the stable key, `label`/`labelEn` its names. */
export const CatalogLabel = Type.Object({
  group: Type.String(),
  value: Type.String(),
  label: Type.String(),
  labelEn: Type.String(),
});
export type CatalogLabel = Static<typeof CatalogLabel>;

/** A label group of the filter panel (spec §3 "Filter: label groups, each with label and value"). */
export const LabelGroup = Type.Object({
  value: Type.String(),
  label: Type.String(),
  labelEn: Type.String(),
  children: Type.Array(CatalogLabel),
});
export type LabelGroup = Static<typeof LabelGroup>;

/** The card fields of spec §3, plus ids and the English texts. `time` is milliseconds since the epoch. */
export const CatalogCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  nameEn: Type.String(),
  tag: Type.String(),
  icon: Type.Union([Type.String(), Type.Null()]),
  time: Type.Integer(),
  downloadCount: Type.Integer(),
  description: Type.String(),
  descriptionEn: Type.String(),
  labelList: Type.Array(CatalogLabel),
});
export type CatalogCard = Static<typeof CatalogCard>;

export const CatalogSort = Type.Union([
  Type.Literal('newest'),
  Type.Literal('downloads'),
  Type.Literal('name'),
]);
export type CatalogSort = Static<typeof CatalogSort>;

/**
 * Common list body: keyword over name and description in both languages, category, labels (all must match), paging.
 */
const listFields = {
  keyword: Type.Optional(Type.String({ maxLength: 200 })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  labels: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
  sort: Type.Optional(CatalogSort),
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM, default: 1 })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Limits.maxCatalogPageSize, default: Limits.defaultPageSize }),
  ),
};

export const ImageListBody = Type.Object({
  ...listFields,
  acceleratorType: Type.Optional(Type.String({ maxLength: 50 })),
});
export type ImageListBody = Static<typeof ImageListBody>;

export const ImageCard = Type.Object({
  ...CatalogCard.properties,
  acceleratorType: Type.String(),
  category: Type.String(),
  /** Unique within its accelerator type, used in the detail route /image/{acceleratorType}/{imageName}: repo:tag. */
  imageName: Type.String(),
  /** Ready-to-copy pull command for the detail page. */
  pullCommand: Type.String(),
  /** Path of the markdown description inside the catalogue storage (spec §3 "descFilePath"). */
  descFilePath: Type.Union([Type.String(), Type.Null()]),
});
export type ImageCard = Static<typeof ImageCard>;

export const ModelListBody = Type.Object(listFields);
export type ModelListBody = Static<typeof ModelListBody>;

export const ModelCard = Type.Object({
  ...CatalogCard.properties,
  category: Type.String(),
  /** Path of the markdown description inside the catalogue storage (spec §3 "filePath"). */
  filePath: Type.Union([Type.String(), Type.Null()]),
});
export type ModelCard = Static<typeof ModelCard>;

export const AppListBody = Type.Object(listFields);
export type AppListBody = Static<typeof AppListBody>;

export const AppCard = Type.Object({
  ...CatalogCard.properties,
  category: Type.String(),
  filePath: Type.Union([Type.String(), Type.Null()]),
  /** Where the application is launched or documented (an internal route or an external URL). */
  url: Type.Union([Type.String(), Type.Null()]),
});
export type AppCard = Static<typeof AppCard>;

/** A choice of a filter (an accelerator type, a category) with the number of items it keeps. */
const FilterChoice = Type.Object({
  value: Type.String(),
  label: Type.String(),
  labelEn: Type.String(),
  count: Type.Integer(),
});

export const AcceleratorType = FilterChoice;
export type AcceleratorType = Static<typeof AcceleratorType>;

export const Category = FilterChoice;
export type Category = Static<typeof Category>;

export const CategoryListBody = Type.Object({
  acceleratorType: Type.Optional(Type.String({ maxLength: 50 })),
});

export const ImageListResponse = Envelope(Page(ImageCard));
export const ModelListResponse = Envelope(Page(ModelCard));
export const AppListResponse = Envelope(Page(AppCard));
export const LabelGroupsResponse = Envelope(Type.Array(LabelGroup));
export const AcceleratorTypesResponse = Envelope(Type.Array(AcceleratorType));
export const CategoriesResponse = Envelope(Type.Array(Category));
export const ImageDetailResponse = Envelope(ImageCard);
export const ModelDetailResponse = Envelope(ModelCard);
/** `GET /image-center/image/detail?acceleratorType=&imageName=`: the image of a detail route. */
export const ImageDetailQuery = Type.Object({
  acceleratorType: Type.String({ minLength: 1, maxLength: 50 }),
  imageName: Type.String({ minLength: 1, maxLength: 200 }),
});

/**
 * `GET /image-center/image/desc/path?id=` or `?createTime=`: where an image's description is, and its route
 * parts; the web uses `createTime` to rewrite the spec's in-text links `/image/{creation time in ms}#anchor`.
 */
export const DescPathQuery = Type.Object({
  id: Type.Optional(Type.Integer({ minimum: 1 })),
  createTime: Type.Optional(Type.Integer({ minimum: 0 })),
});
export const DescPathResponse = Envelope(
  Type.Object({
    id: Type.Integer(),
    acceleratorType: Type.String(),
    imageName: Type.String(),
    descFilePath: Type.Union([Type.String(), Type.Null()]),
  }),
);

/** `GET /image-center/image/file/view?descFilePath=` and `GET /model-zoo/model/file/view?filePath=`. */
export const ImageFileViewQuery = Type.Object({
  descFilePath: Type.String({ minLength: 1, maxLength: 1024 }),
});
export const FileViewQuery = Type.Object({ filePath: Type.String({ minLength: 1, maxLength: 1024 }) });

/** Markdown text (file/view answers the text in `data`). */
export const MarkdownResponse = Envelope(Type.String());

/** `{id}` of `/model-zoo/model/{id}`, `/model-zoo/model/count/{id}` and `/app-center/app/{id}` (a 32-bit id). */
export const CatalogIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

/** `GET /image-center/image/label/list?acceleratorType=`: only the labels used by images of that type when given. */
export const ImageLabelListQuery = Type.Object({
  acceleratorType: Type.Optional(Type.String({ maxLength: 50 })),
});

/** `POST /model-zoo/model/count/{id}`: the model's download count after the increment. */
export const DownloadCountResponse = Envelope(Type.Object({ downloadCount: Type.Integer() }));

/**
 * One application as its detail page shows it: the card, and its ready job when it has one (`jobTemplate`, null
 * otherwise; only here, so that the lists stay small).
 */
export const AppDetail = Type.Object({
  ...AppCard.properties,
  jobTemplate: Type.Union([AppJobTemplate, Type.Null()]),
});
export type AppDetail = Static<typeof AppDetail>;
export const AppDetailResponse = Envelope(AppDetail);

/** `GET /catalog-files/*`: a path inside the catalogue storage (icons, images of the markdown descriptions). */
export const CatalogFileParams = Type.Object({ '*': Type.String({ minLength: 1, maxLength: 1024 }) });

/** One file of a model (the model zoo's file view): its path inside the model, size in bytes and sha256 (hex). */
export const ModelFile = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
});
export type ModelFile = Static<typeof ModelFile>;

/** `GET /model-zoo/model/{id}/files`: every file of the model, sorted by path; empty when it has none. */
export const ModelFilesResponse = Envelope(
  Type.Object({ files: Type.Array(ModelFile), totalSize: Type.Integer() }),
);

/** `GET /model-zoo/model/{id}/file?path=`: one file of the model, as a download. */
export const ModelFileQuery = Type.Object({ path: Type.String({ minLength: 1, maxLength: 1024 }) });

/**
 * `POST /api/model-zoo/model/{id}/copy`: copy the model's files into the folder `parentPath/name` of the user's
 * files on `clusterId` (JSON). The folder must not exist yet.
 */
export const ModelCopyBody = Type.Object({
  clusterId: Type.String({ minLength: 1, maxLength: 32 }),
  parentPath: Type.String({ minLength: 1, maxLength: 4096 }),
  name: Type.String({ minLength: 1, maxLength: 70 }),
});
export type ModelCopyBody = Static<typeof ModelCopyBody>;

export const ModelCopyState = Type.Union([
  Type.Literal('running'),
  Type.Literal('success'),
  Type.Literal('error'),
  Type.Literal('cancelled'),
]);
export type ModelCopyState = Static<typeof ModelCopyState>;

/** A copy's progress as `GET /api/model-zoo/copy/{jobId}` answers it. */
export const ModelCopyJob = Type.Object({
  jobId: Type.String(),
  modelId: Type.Integer(),
  clusterId: Type.String(),
  /** The folder the files end up in (cluster path). */
  targetPath: Type.String(),
  state: ModelCopyState,
  bytesDone: Type.Number(),
  bytesTotal: Type.Number(),
  filesDone: Type.Integer(),
  filesTotal: Type.Integer(),
  /**
   * On error: the code of spec §8 and the message, in the language the progress call asked for (`Accept-Language`)
   * when the portal has it in that language; `lang` says which (a message relayed from efile stays English).
   */
  error: Type.Union([
    Type.Object({ code: Type.String(), msg: Type.String(), lang: Type.String() }),
    Type.Null(),
  ]),
  startedAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type ModelCopyJob = Static<typeof ModelCopyJob>;

export const ModelCopyJobParams = Type.Object({ jobId: Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' }) });
export const ModelCopyJobResponse = Envelope(ModelCopyJob);

/**
 * Endpoints (portal, spec §7 paths kept exactly):
 * - GET  /image-center/image/acceleratorType/list            → AcceleratorTypesResponse
 * - GET  /image-center/image/label/list?acceleratorType=      → LabelGroupsResponse
 * - POST /image-center/image/category/list  CategoryListBody  → CategoriesResponse
 * - POST /image-center/image/list           ImageListBody     → ImageListResponse
 * - GET  /image-center/image/detail         ImageDetailQuery  → ImageDetailResponse
 * - GET  /image-center/image/desc/path      DescPathQuery     → DescPathResponse
 * - GET  /image-center/image/file/view      ImageFileViewQuery → MarkdownResponse
 * - GET  /model-zoo/label/list                                → LabelGroupsResponse
 * - POST /model-zoo/model/category/list                     → CategoriesResponse
 * - POST /model-zoo/model/list              ModelListBody     → ModelListResponse
 * - GET  /model-zoo/model/{id}                                → ModelDetailResponse
 * - GET  /model-zoo/model/file/view         FileViewQuery     → MarkdownResponse
 * - POST /model-zoo/model/count/{id}                          → Envelope({ downloadCount })
 * - GET  /app-center/label/list                               → LabelGroupsResponse
 * - POST /app-center/app/category/list                      → CategoriesResponse
 * - POST /app-center/app/list               AppListBody       → AppListResponse
 * - GET  /app-center/app/{id}                                 → AppDetailResponse
 * - GET  /app-center/app/file/view          FileViewQuery     → MarkdownResponse
 * - GET  /catalog-files/*                   icons and images referenced by the markdown (images only)
 * - GET  /model-zoo/model/{id}/files                          → ModelFilesResponse
 * - GET  /model-zoo/model/{id}/file         ModelFileQuery    → the file (attachment)
 * - POST /api/model-zoo/model/{id}/copy     ModelCopyBody     → ModelCopyJobResponse (session, CSRF)
 * - GET  /api/model-zoo/copy/{jobId}                          → ModelCopyJobResponse
 * - POST /api/model-zoo/copy/{jobId}/cancel                   → ModelCopyJobResponse
 */
