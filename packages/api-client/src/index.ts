export { ApiError, isApiError, isTransient, type ApiErrorKind, type ApiErrorInit } from './api-error';
export {
  ApiClient,
  failedResult,
  toSearchParams,
  type CallResult,
  type ApiClientOptions,
  type RequestOptions,
  type QueryParams,
  type FormBody,
  type HttpMethod,
} from './client';
export { routePath, routeRequest, type Bytes, type RouteArgs, type RouteInput } from './route-request';
export {
  codeOfAnswer,
  envelopeError,
  isEnvelope,
  parseEnvelope,
  readEnvelope,
  type DataOf,
  type EnvelopeLike,
} from './envelope';
export {
  catalogApi,
  type CatalogApi,
  type PageOf,
  type DescPath,
  type CallOptions,
  type ModelFiles,
  type ModelCopyJobData,
} from './catalog.api';
export {
  efileApi,
  encodedPathsLength,
  type EfileCalls,
  type InitInfo,
  type LinuxCommands,
  type ListPage,
  type ListParams,
  type OperationProgress,
  type ShareInfo,
  type ShareListPage,
  type SortKey,
  type TreeChildren,
} from './efile.api';
export {
  shareApi,
  type ShareCalls,
  type PublicList,
  type PublicShareInfo,
  type ShareVerified,
} from './share.api';
export { identityApi, type IdentityCalls, type AccountAlertsData } from './identity.api';
export { encodeRequestTime, requestTimeHeaders } from './request-time';
export {
  chunkUploadApi,
  chunkForm,
  type ChunkUploadApi,
  type ChunkStored,
  type ChunkCallOptions,
} from './chunk-upload';
export {
  fastransApi,
  fastransWebApi,
  type FastransCalls,
  type FastransClientWho,
  type FastransWebCalls,
  type FastransWebLogin,
  type ManifestLine,
  type RelayBatch,
  type TransferBatchResult,
  type TransferStatus,
} from './fastrans.api';
export {
  jobsApi,
  type JobsCalls,
  type JobAction,
  type JobActionData,
  type JobDetailData,
  type JobHistoryPage,
  type JobListPage,
  type JobOutputData,
  type JobOverviewData,
  type JobTemplates,
  type JobVersion,
  type PartitionsData,
} from './jobs.api';
