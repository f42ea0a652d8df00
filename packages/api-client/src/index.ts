export { ApiError, isApiError, type ApiErrorKind, type ApiErrorInit } from './api-error';
export {
  ApiClient,
  toSearchParams,
  type ApiClientOptions,
  type RequestOptions,
  type QueryParams,
  type FormBody,
  type HttpMethod,
} from './client';
export { catalogApi, type CatalogApi, type PageOf, type DescPath, type CallOptions } from './catalog.api';
export { encodeRequestTime, requestTimeHeaders } from './request-time';
export {
  chunkUploadApi,
  chunkForm,
  type ChunkUploadApi,
  type ChunkStored,
  type ChunkCallOptions,
} from './chunk-upload';
