import { defineRoute } from './route';
import { EmptyResponse } from './identity';
import {
  JobActionResponse,
  JobDetailResponse,
  JobHistoryQuery,
  JobHistoryResponse,
  JobIdQuery,
  JobIdsBody,
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
  TemplateDeleteBody,
  TemplateGetResponse,
  TemplateNameQuery,
  TemplateListResponse,
  TemplateSaveResponse,
} from './jobs';

const tags = ['jobs'] as const;
const actionOf = (path: string) =>
  defineRoute({ method: 'POST', path, body: JobIdsBody, response: JobActionResponse, tags });

/**
 * The job service of one cluster (issue 22 §2), declared once (`route.ts`): the service registers these with
 * `addRoute`, `@hpc/api-client`'s `jobsApi` calls them. Paths in the `.action` style of the spec's other services.
 */
export const JobRoutes = {
  /** The health call of a `gridview_service` (spec §7), no token. */
  version: defineRoute({
    method: 'GET',
    path: '/login/getVersion.action',
    response: JobVersionResponse,
    tags,
  }),
  partitions: defineRoute({
    method: 'GET',
    path: '/job/partitions.action',
    response: PartitionsResponse,
    tags,
  }),
  submit: defineRoute({
    method: 'POST',
    path: '/job/submit.action',
    body: SubmitBody,
    response: SubmitResponse,
    tags,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/job/list.action',
    query: JobListQuery,
    response: JobListResponse,
    tags,
  }),
  overview: defineRoute({ method: 'GET', path: '/job/overview.action', response: JobOverviewResponse, tags }),
  history: defineRoute({
    method: 'GET',
    path: '/job/history.action',
    query: JobHistoryQuery,
    response: JobHistoryResponse,
    tags,
  }),
  detail: defineRoute({
    method: 'GET',
    path: '/job/detail.action',
    query: JobIdQuery,
    response: JobDetailResponse,
    tags,
  }),
  output: defineRoute({
    method: 'GET',
    path: '/job/output.action',
    query: JobOutputQuery,
    response: JobOutputResponse,
    tags,
  }),
  cancel: actionOf('/job/cancel.action'),
  hold: actionOf('/job/hold.action'),
  release: actionOf('/job/release.action'),
  templateList: defineRoute({
    method: 'GET',
    path: '/job/template/list.action',
    response: TemplateListResponse,
    tags,
  }),
  templateGet: defineRoute({
    method: 'GET',
    path: '/job/template/get.action',
    query: TemplateNameQuery,
    response: TemplateGetResponse,
    tags,
  }),
  templateSave: defineRoute({
    method: 'POST',
    path: '/job/template/save.action',
    body: JobTemplate,
    response: TemplateSaveResponse,
    tags,
  }),
  templateDelete: defineRoute({
    method: 'POST',
    path: '/job/template/delete.action',
    body: TemplateDeleteBody,
    response: EmptyResponse,
    tags,
  }),
};
