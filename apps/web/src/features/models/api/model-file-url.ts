import { api } from '../../../shared/api/client';

/** Where a model file downloads from: a plain link, so the browser streams it to disk (no page memory). */
export const modelFileUrl = (modelId: number, path: string): string => api.models.fileUrl(modelId, path);
