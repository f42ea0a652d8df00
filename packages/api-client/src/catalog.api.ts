import type {
  AcceleratorType,
  AppCard,
  AppListBody,
  Category,
  DescPathResponse,
  DownloadCountResponse,
  ImageCard,
  ImageListBody,
  LabelGroup,
  ModelCard,
  ModelCopyBody,
  ModelCopyJobResponse,
  ModelFilesResponse,
  ModelListBody,
  ImageListResponse,
} from '@hpc/contracts';
import type { ApiClient } from './client';
import type { DataOf } from './envelope';

/** A page of a catalogue list: contracts' `Page(T)` for the card schema `T`. */
export type PageOf<T> = Omit<DataOf<typeof ImageListResponse>, 'list'> & { list: T[] };
export type DescPath = DataOf<typeof DescPathResponse>;
export type ModelFiles = DataOf<typeof ModelFilesResponse>;
export type ModelCopyJobData = DataOf<typeof ModelCopyJobResponse>;

/** Per-call options every catalogue method accepts. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The catalogue endpoints of contracts' `catalog.ts`, typed; paths are the spec's (§7). */
export function catalogApi(client: ApiClient) {
  return {
    images: {
      acceleratorTypes: (o: CallOptions = {}) =>
        client.get<AcceleratorType[]>('/image-center/image/acceleratorType/list', undefined, o),
      labels: (acceleratorType?: string, o: CallOptions = {}) =>
        client.get<LabelGroup[]>('/image-center/image/label/list', { acceleratorType }, o),
      categories: (acceleratorType?: string, o: CallOptions = {}) =>
        client.post<Category[]>('/image-center/image/category/list', {
          ...o,
          json: acceleratorType ? { acceleratorType } : {},
        }),
      list: (body: ImageListBody, o: CallOptions = {}) =>
        client.post<PageOf<ImageCard>>('/image-center/image/list', { ...o, json: body }),
      detail: (acceleratorType: string, imageName: string, o: CallOptions = {}) =>
        client.get<ImageCard>('/image-center/image/detail', { acceleratorType, imageName }, o),
      descPath: (q: { id?: number; createTime?: number }, o: CallOptions = {}) =>
        client.get<DescPath>('/image-center/image/desc/path', q, o),
      fileView: (descFilePath: string, o: CallOptions = {}) =>
        client.get<string>('/image-center/image/file/view', { descFilePath }, o),
    },
    models: {
      labels: (o: CallOptions = {}) => client.get<LabelGroup[]>('/model-zoo/label/list', undefined, o),
      categories: (o: CallOptions = {}) => client.post<Category[]>('/model-zoo/model/category/list', o),
      list: (body: ModelListBody, o: CallOptions = {}) =>
        client.post<PageOf<ModelCard>>('/model-zoo/model/list', { ...o, json: body }),
      detail: (id: number, o: CallOptions = {}) =>
        client.get<ModelCard>(`/model-zoo/model/${encodeURIComponent(id)}`, undefined, o),
      fileView: (filePath: string, o: CallOptions = {}) =>
        client.get<string>('/model-zoo/model/file/view', { filePath }, o),
      /** Counts a download/copy (spec §7: any response code is tolerated, so callers usually ignore failures). */
      count: (id: number, o: CallOptions = {}) =>
        client.post<DataOf<typeof DownloadCountResponse>>(
          `/model-zoo/model/count/${encodeURIComponent(id)}`,
          o,
        ),
      files: (id: number, o: CallOptions = {}) =>
        client.get<ModelFiles>(`/model-zoo/model/${encodeURIComponent(id)}/files`, undefined, o),
      /** Copies the model's files into a new folder of the user's files on a cluster (a job to follow). */
      startCopy: (id: number, body: ModelCopyBody) =>
        client.post<ModelCopyJobData>(`/api/model-zoo/model/${encodeURIComponent(id)}/copy`, { json: body }),
      copyProgress: (jobId: string, o: CallOptions = {}) =>
        client.get<ModelCopyJobData>(`/api/model-zoo/copy/${encodeURIComponent(jobId)}`, undefined, o),
      cancelCopy: (jobId: string) =>
        client.post<ModelCopyJobData>(`/api/model-zoo/copy/${encodeURIComponent(jobId)}/cancel`),
    },
    apps: {
      labels: (o: CallOptions = {}) => client.get<LabelGroup[]>('/app-center/label/list', undefined, o),
      categories: (o: CallOptions = {}) => client.post<Category[]>('/app-center/app/category/list', o),
      list: (body: AppListBody, o: CallOptions = {}) =>
        client.post<PageOf<AppCard>>('/app-center/app/list', { ...o, json: body }),
      detail: (id: number, o: CallOptions = {}) =>
        client.get<AppCard>(`/app-center/app/${encodeURIComponent(id)}`, undefined, o),
      fileView: (filePath: string, o: CallOptions = {}) =>
        client.get<string>('/app-center/app/file/view', { filePath }, o),
    },
  };
}

export type CatalogApi = ReturnType<typeof catalogApi>;
