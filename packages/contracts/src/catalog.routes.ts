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
  ModelCopyBody,
  ModelCopyJobParams,
  ModelCopyJobResponse,
  ModelDetailResponse,
  ModelFileQuery,
  ModelFilesResponse,
  ModelListBody,
  ModelListResponse,
} from './catalog';
import { Binary } from './common';
import { defineRoute } from './route';

/**
 * The catalogues of the portal (spec §7 paths), declared once for its routes and the clients (`route.ts`). Public
 * like the catalogues themselves, except the copy to the user's files (`/api/…`, a session).
 */

const image = ['image centre'];
const model = ['model zoo'];
const app = ['application centre'];

/** The image centre. */
export const ImageRoutes = {
  acceleratorTypes: defineRoute({
    method: 'GET',
    path: '/image-center/image/acceleratorType/list',
    response: AcceleratorTypesResponse,
    tags: image,
  }),
  /** Only the labels used by images of that accelerator type, when given. */
  labels: defineRoute({
    method: 'GET',
    path: '/image-center/image/label/list',
    query: ImageLabelListQuery,
    response: LabelGroupsResponse,
    tags: image,
  }),
  categories: defineRoute({
    method: 'POST',
    path: '/image-center/image/category/list',
    body: CategoryListBody,
    response: CategoriesResponse,
    tags: image,
  }),
  list: defineRoute({
    method: 'POST',
    path: '/image-center/image/list',
    body: ImageListBody,
    response: ImageListResponse,
    tags: image,
  }),
  detail: defineRoute({
    method: 'GET',
    path: '/image-center/image/detail',
    query: ImageDetailQuery,
    response: ImageDetailResponse,
    tags: image,
  }),
  descPath: defineRoute({
    method: 'GET',
    path: '/image-center/image/desc/path',
    query: DescPathQuery,
    response: DescPathResponse,
    tags: image,
  }),
  /** The markdown text of a description. */
  fileView: defineRoute({
    method: 'GET',
    path: '/image-center/image/file/view',
    query: ImageFileViewQuery,
    response: MarkdownResponse,
    tags: image,
  }),
};

/** The model zoo, its file view and the copy of a model's files to the user's E-File. */
export const ModelRoutes = {
  labels: defineRoute({
    method: 'GET',
    path: '/model-zoo/label/list',
    response: LabelGroupsResponse,
    tags: model,
  }),
  categories: defineRoute({
    method: 'POST',
    path: '/model-zoo/model/category/list',
    response: CategoriesResponse,
    tags: model,
  }),
  list: defineRoute({
    method: 'POST',
    path: '/model-zoo/model/list',
    body: ModelListBody,
    response: ModelListResponse,
    tags: model,
  }),
  fileView: defineRoute({
    method: 'GET',
    path: '/model-zoo/model/file/view',
    query: FileViewQuery,
    response: MarkdownResponse,
    tags: model,
  }),
  detail: defineRoute({
    method: 'GET',
    path: '/model-zoo/model/:id',
    params: CatalogIdParams,
    response: ModelDetailResponse,
    tags: model,
  }),
  /** Counts a download or copy (spec §7: callers tolerate any answer). */
  count: defineRoute({
    method: 'POST',
    path: '/model-zoo/model/count/:id',
    params: CatalogIdParams,
    response: DownloadCountResponse,
    tags: model,
  }),
  /** Every file of the model with size and sha256, sorted by path. */
  files: defineRoute({
    method: 'GET',
    path: '/model-zoo/model/:id/files',
    params: CatalogIdParams,
    response: ModelFilesResponse,
    tags: model,
  }),
  /** One file of the model, as a download (a link the browser opens). */
  file: defineRoute({
    method: 'GET',
    path: '/model-zoo/model/:id/file',
    params: CatalogIdParams,
    query: ModelFileQuery,
    response: Binary,
    tags: model,
  }),
  /** Copies the model's files into a new folder of the user's files on a cluster: a job to follow. */
  startCopy: defineRoute({
    method: 'POST',
    path: '/api/model-zoo/model/:id/copy',
    params: CatalogIdParams,
    body: ModelCopyBody,
    response: ModelCopyJobResponse,
    tags: model,
  }),
  copyProgress: defineRoute({
    method: 'GET',
    path: '/api/model-zoo/copy/:jobId',
    params: ModelCopyJobParams,
    response: ModelCopyJobResponse,
    tags: model,
  }),
  cancelCopy: defineRoute({
    method: 'POST',
    path: '/api/model-zoo/copy/:jobId/cancel',
    params: ModelCopyJobParams,
    response: ModelCopyJobResponse,
    tags: model,
  }),
};

/** The application centre, shaped like the model zoo. */
export const AppRoutes = {
  labels: defineRoute({
    method: 'GET',
    path: '/app-center/label/list',
    response: LabelGroupsResponse,
    tags: app,
  }),
  categories: defineRoute({
    method: 'POST',
    path: '/app-center/app/category/list',
    response: CategoriesResponse,
    tags: app,
  }),
  list: defineRoute({
    method: 'POST',
    path: '/app-center/app/list',
    body: AppListBody,
    response: AppListResponse,
    tags: app,
  }),
  fileView: defineRoute({
    method: 'GET',
    path: '/app-center/app/file/view',
    query: FileViewQuery,
    response: MarkdownResponse,
    tags: app,
  }),
  detail: defineRoute({
    method: 'GET',
    path: '/app-center/app/:id',
    params: CatalogIdParams,
    response: AppDetailResponse,
    tags: app,
  }),
};

/** Icons and the images of the markdown descriptions, inside the catalogue storage: image types only. */
export const CatalogFileRoutes = {
  file: defineRoute({
    method: 'GET',
    path: '/catalog-files/*',
    params: CatalogFileParams,
    response: Binary,
    tags: ['catalogue files'],
  }),
};
