import type {
  JobActionResponse,
  JobDetailResponse,
  JobHistoryQuery,
  JobHistoryResponse,
  JobListQuery,
  JobListResponse,
  JobOutputQuery,
  JobOutputResponse,
  JobOverviewResponse,
  JobTemplate,
  JobVersionResponse,
  PartitionsResponse,
  SubmitBody,
  SubmitResponse,
  TemplateListResponse,
  TemplateSaveResponse,
} from '@hpc/contracts';
import type { ApiClient, RequestOptions } from './client';
import type { DataOf } from './envelope';

export type PartitionsData = DataOf<typeof PartitionsResponse>;
export type JobListPage = DataOf<typeof JobListResponse>;
export type JobHistoryPage = DataOf<typeof JobHistoryResponse>;
export type JobDetailData = DataOf<typeof JobDetailResponse>;
export type JobOutputData = DataOf<typeof JobOutputResponse>;
export type JobActionData = DataOf<typeof JobActionResponse>;
export type JobOverviewData = DataOf<typeof JobOverviewResponse>;
export type JobTemplates = DataOf<typeof TemplateListResponse>;
export type JobVersion = DataOf<typeof JobVersionResponse>;
export type JobAction = 'cancel' | 'hold' | 'release';

type Opts = Pick<RequestOptions, 'signal' | 'timeoutMs'>;

/**
 * The calls of one cluster's job service (contracts/jobs.ts, issue 22 §2). `client` carries that cluster's token in
 * the `token` header, as for efile, so the same calls serve the web, tests and the bench.
 */
export function jobsApi(client: ApiClient, clusterId: string) {
  return {
    clusterId,
    version: (o: Opts = {}) => client.get<JobVersion>('/login/getVersion.action', undefined, o),
    partitions: (o: Opts = {}) => client.get<PartitionsData>('/job/partitions.action', undefined, o),
    submit: (body: SubmitBody, o: Opts = {}) =>
      client.post<DataOf<typeof SubmitResponse>>('/job/submit.action', { json: body, ...o }),
    list: (q: JobListQuery = {}, o: Opts = {}) => client.get<JobListPage>('/job/list.action', q, o),
    history: (q: JobHistoryQuery = {}, o: Opts = {}) =>
      client.get<JobHistoryPage>('/job/history.action', q, o),
    detail: (jobId: string, o: Opts = {}) => client.get<JobDetailData>('/job/detail.action', { jobId }, o),
    output: (q: JobOutputQuery, o: Opts = {}) => client.get<JobOutputData>('/job/output.action', q, o),
    act: (action: JobAction, jobIds: string[], o: Opts = {}) =>
      client.post<JobActionData>(`/job/${action}.action`, { json: { jobIds }, ...o }),
    overview: (o: Opts = {}) => client.get<JobOverviewData>('/job/overview.action', undefined, o),
    templates: (o: Opts = {}) => client.get<JobTemplates>('/job/template/list.action', undefined, o),
    saveTemplate: (t: JobTemplate, o: Opts = {}) =>
      client.post<DataOf<typeof TemplateSaveResponse>>('/job/template/save.action', { json: t, ...o }),
    deleteTemplate: (name: string, o: Opts = {}) =>
      client.post<null>('/job/template/delete.action', { json: { name }, ...o }),
  };
}
export type JobsCalls = ReturnType<typeof jobsApi>;
