import { JobRoutes, type RouteData } from '@hpc/contracts';
import type { ApiClient } from './client';

export type PartitionsData = RouteData<typeof JobRoutes.partitions>;
export type JobListPage = RouteData<typeof JobRoutes.list>;
export type JobHistoryPage = RouteData<typeof JobRoutes.history>;
export type JobDetailData = RouteData<typeof JobRoutes.detail>;
export type JobOutputData = RouteData<typeof JobRoutes.output>;
export type JobActionData = RouteData<typeof JobRoutes.cancel>;
export type JobOverviewData = RouteData<typeof JobRoutes.overview>;
export type JobTemplates = RouteData<typeof JobRoutes.templateList>;
export type JobVersion = RouteData<typeof JobRoutes.version>;
export type JobAction = 'cancel' | 'hold' | 'release';

/**
 * The calls of one cluster's job service (contracts' `JobRoutes`, issue 22 §2). `client` carries that cluster's
 * token in the `token` header, as for efile, so the same calls serve the web, tests and the bench. Each call takes
 * its typed input and the call options (signal, deadline).
 */
export function jobsApi(client: ApiClient, clusterId: string) {
  return {
    clusterId,
    version: client.route(JobRoutes.version),
    partitions: client.route(JobRoutes.partitions),
    submit: client.route(JobRoutes.submit),
    list: client.route(JobRoutes.list),
    overview: client.route(JobRoutes.overview),
    history: client.route(JobRoutes.history),
    detail: client.route(JobRoutes.detail),
    output: client.route(JobRoutes.output),
    act: (action: JobAction, jobIds: string[]) => client.request(JobRoutes[action], { body: { jobIds } }),
    templates: client.route(JobRoutes.templateList),
    template: client.route(JobRoutes.templateGet),
    saveTemplate: client.route(JobRoutes.templateSave),
    deleteTemplate: client.route(JobRoutes.templateDelete),
  };
}
export type JobsCalls = ReturnType<typeof jobsApi>;
