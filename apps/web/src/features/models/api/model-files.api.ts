import type { EfileInfo, ModelCopyBody, ModelCopyJob, ModelFile } from '@hpc/contracts';
import { apiClient } from '../../../shared/api/client';

/** Where a model file downloads from: a plain link, so the browser streams it to disk (no page memory). */
export const modelFileUrl = (modelId: number, path: string): string =>
  `/model-zoo/model/${modelId}/file?path=${encodeURIComponent(path)}`;

export const modelFilesApi = {
  files: (modelId: number, signal?: AbortSignal) =>
    apiClient.get<{ files: ModelFile[]; totalSize: number }>(`/model-zoo/model/${modelId}/files`, undefined, {
      signal,
    }),
  /** Spec §7 `GET /model-zoo/proxy/efile/info`: the user's home and compute user on a cluster. */
  efileInfo: (clusterId: string, signal?: AbortSignal) =>
    apiClient.get<EfileInfo>('/model-zoo/proxy/efile/info', { clusterId }, { signal }),
  startCopy: (modelId: number, body: ModelCopyBody) =>
    apiClient.post<ModelCopyJob>(`/api/model-zoo/model/${modelId}/copy`, { json: body }),
  copyProgress: (jobId: string, signal?: AbortSignal) =>
    apiClient.get<ModelCopyJob>(`/api/model-zoo/copy/${jobId}`, undefined, { signal }),
  cancelCopy: (jobId: string) => apiClient.post<ModelCopyJob>(`/api/model-zoo/copy/${jobId}/cancel`),
};
