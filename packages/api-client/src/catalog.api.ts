import {
  AppRoutes,
  ImageRoutes,
  ModelRoutes,
  type AppListBody,
  type ImageListBody,
  type ModelCopyBody,
  type ModelListBody,
  type RouteData,
  type RouteQuery,
} from '@hpc/contracts';
import type { ApiClient } from './client';
import type { CallOptions } from './route-request';

export type { CallOptions };
/** A page of a catalogue list: contracts' `Page(T)` for the card schema `T`. */
export type PageOf<T> = Omit<RouteData<typeof ImageRoutes.list>, 'list'> & { list: T[] };
export type DescPath = RouteData<typeof ImageRoutes.descPath>;
export type ModelFiles = RouteData<typeof ModelRoutes.files>;
export type ModelCopyJobData = RouteData<typeof ModelRoutes.copyProgress>;

/** The catalogue calls of contracts' `catalog.routes.ts`, typed; paths are the spec's (§7). */
export function catalogApi(client: ApiClient) {
  return {
    images: {
      acceleratorTypes: (o: CallOptions = {}) => client.request(ImageRoutes.acceleratorTypes, {}, o),
      labels: (acceleratorType?: string, o: CallOptions = {}) =>
        client.request(ImageRoutes.labels, { query: { acceleratorType } }, o),
      categories: (acceleratorType?: string, o: CallOptions = {}) =>
        client.request(ImageRoutes.categories, { body: acceleratorType ? { acceleratorType } : {} }, o),
      list: (body: ImageListBody, o: CallOptions = {}) => client.request(ImageRoutes.list, { body }, o),
      detail: (acceleratorType: string, imageName: string, o: CallOptions = {}) =>
        client.request(ImageRoutes.detail, { query: { acceleratorType, imageName } }, o),
      descPath: (query: RouteQuery<typeof ImageRoutes.descPath>, o: CallOptions = {}) =>
        client.request(ImageRoutes.descPath, { query }, o),
      fileView: (descFilePath: string, o: CallOptions = {}) =>
        client.request(ImageRoutes.fileView, { query: { descFilePath } }, o),
    },
    models: {
      labels: (o: CallOptions = {}) => client.request(ModelRoutes.labels, {}, o),
      categories: (o: CallOptions = {}) => client.request(ModelRoutes.categories, {}, o),
      list: (body: ModelListBody, o: CallOptions = {}) => client.request(ModelRoutes.list, { body }, o),
      detail: (id: number, o: CallOptions = {}) => client.request(ModelRoutes.detail, { params: { id } }, o),
      fileView: (filePath: string, o: CallOptions = {}) =>
        client.request(ModelRoutes.fileView, { query: { filePath } }, o),
      /** Counts a download/copy (spec §7: any response code is tolerated, so callers usually ignore failures). */
      count: (id: number, o: CallOptions = {}) => client.request(ModelRoutes.count, { params: { id } }, o),
      files: (id: number, o: CallOptions = {}) => client.request(ModelRoutes.files, { params: { id } }, o),
      /** Where a model file downloads from: a plain link, so the browser streams it to disk (no page memory). */
      fileUrl: (id: number, path: string) =>
        client.url(ModelRoutes.file, { params: { id }, query: { path } }),
      /** Copies the model's files into a new folder of the user's files on a cluster (a job to follow). */
      startCopy: (id: number, body: ModelCopyBody) =>
        client.request(ModelRoutes.startCopy, { params: { id }, body }),
      copyProgress: (jobId: string, o: CallOptions = {}) =>
        client.request(ModelRoutes.copyProgress, { params: { jobId } }, o),
      cancelCopy: (jobId: string) => client.request(ModelRoutes.cancelCopy, { params: { jobId } }),
    },
    apps: {
      labels: (o: CallOptions = {}) => client.request(AppRoutes.labels, {}, o),
      categories: (o: CallOptions = {}) => client.request(AppRoutes.categories, {}, o),
      list: (body: AppListBody, o: CallOptions = {}) => client.request(AppRoutes.list, { body }, o),
      detail: (id: number, o: CallOptions = {}) => client.request(AppRoutes.detail, { params: { id } }, o),
      fileView: (filePath: string, o: CallOptions = {}) =>
        client.request(AppRoutes.fileView, { query: { filePath } }, o),
    },
  };
}

export type CatalogApi = ReturnType<typeof catalogApi>;
