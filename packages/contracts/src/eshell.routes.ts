import { defineRoute } from './route';
import { EmptyResponse } from './identity';
import {
  EshellCheckResponse,
  EshellCloseBody,
  EshellSessionsResponse,
  EshellTicketBody,
  EshellTicketResponse,
} from './eshell';

const tags = ['eshell'] as const;

/**
 * The shell service of one cluster (issue 26), declared once (`route.ts`): the service registers these with
 * `addRoute`, the page calls them through `@hpc/api-client`. Paths under the spec's `/sothisai/api/eshell/`.
 */
export const EshellRoutes = {
  /** The health call of the shell (spec §7), no token. */
  check: defineRoute({
    method: 'GET',
    path: '/sothisai/api/eshell/action/check',
    response: EshellCheckResponse,
    tags,
  }),
  /** A one-time ticket (30 s) that opens the terminal's socket: a new session, or the user's running one again. */
  ticket: defineRoute({
    method: 'POST',
    path: '/sothisai/api/eshell/action/ticket',
    body: EshellTicketBody,
    response: EshellTicketResponse,
    tags,
  }),
  /** The user's sessions on this instance (running or detached). */
  sessions: defineRoute({
    method: 'GET',
    path: '/sothisai/api/eshell/action/sessions',
    response: EshellSessionsResponse,
    tags,
  }),
  /** Ends one of the user's sessions (a closed tab). */
  close: defineRoute({
    method: 'POST',
    path: '/sothisai/api/eshell/action/close',
    body: EshellCloseBody,
    response: EmptyResponse,
    tags,
  }),
};
