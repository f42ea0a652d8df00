import {
  AccessPathBody,
  AccessPathResponse,
  AccountAlertsResponse,
  AuthConfigResponse,
  CanApplyQuery,
  CanApplyResponse,
  ClusterListQuery,
  ClusterListResponse,
  ClusterUserBaseInfoResponse,
  ClusterUsersDetailResponse,
  CredentialRevokeBody,
  CurrentUserResponse,
  EfileInfoQuery,
  EfileInfoResponse,
  EmptyResponse,
  IssuedCredentialsResponse,
  LoginBody,
  PasswordChangeBody,
  PasswordChangeResponse,
  PublicEfileUrlsQuery,
  PublicEfileUrlsResponse,
  SessionEndBody,
  SessionsEndedResponse,
  TokenRefreshResponse,
  UserAccountsResponse,
  UserPreferencesBody,
  UserPreferencesResponse,
  UserProfileResponse,
  UserSessionsResponse,
} from './identity';
import { defineRoute } from './route';

/**
 * The portal's identity calls (`route.ts`): session and login, the user's own settings, sessions and credentials,
 * accounts, clusters. Who may call each is the portal's route group (`public`, `user`, `manager`), not part of the
 * declaration. Bodies are JSON; the portal reads forms too (spec §7).
 */

/** Login, logout and the session's tokens. */
export const AuthRoutes = {
  /** Whether single sign-on is configured, and the names of the CSRF and request-time headers (anonymous). */
  config: defineRoute({
    method: 'GET',
    path: '/api/auth/config',
    response: AuthConfigResponse,
    tags: ['identity'],
  }),
  /** Sets the session cookie; wrong credentials answer 401 `LOGIN_FAILED`, too many tries 429. */
  login: defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    body: LoginBody,
    response: CurrentUserResponse,
    tags: ['identity'],
  }),
  /** Idempotent: an ended session is simply gone already. */
  logout: defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    response: EmptyResponse,
    tags: ['identity'],
  }),
  /** New per-cluster tokens for the current session. */
  refresh: defineRoute({
    method: 'POST',
    path: '/api/auth/refresh',
    response: TokenRefreshResponse,
    tags: ['identity'],
  }),
};

/** The logged-in user's own calls. */
export const UserRoutes = {
  /** spec §3 "User": id, userInfo, tokenList (one token per cluster), and the session's CSRF token. */
  info: defineRoute({
    method: 'GET',
    path: '/api/user/info',
    response: CurrentUserResponse,
    tags: ['identity'],
  }),
  /** Ends the user's other sessions (`endedSessions`); the calling one stays. */
  changePassword: defineRoute({
    method: 'POST',
    path: '/api/user/password',
    body: PasswordChangeBody,
    response: PasswordChangeResponse,
    tags: ['identity'],
  }),
  profile: defineRoute({
    method: 'GET',
    path: '/api/user/profile',
    response: UserProfileResponse,
    tags: ['user centre'],
  }),
  preferences: defineRoute({
    method: 'GET',
    path: '/api/user/preferences',
    response: UserPreferencesResponse,
    tags: ['user centre'],
  }),
  savePreferences: defineRoute({
    method: 'PUT',
    path: '/api/user/preferences',
    body: UserPreferencesBody,
    response: UserPreferencesResponse,
    tags: ['user centre'],
  }),
  /** The user's live sessions, the calling one marked `current`. */
  sessions: defineRoute({
    method: 'GET',
    path: '/api/user/sessions',
    response: UserSessionsResponse,
    tags: ['user centre'],
  }),
  /** Signs out one of the user's sessions (its cluster tokens stop at once too). */
  endSession: defineRoute({
    method: 'POST',
    path: '/api/user/sessions/end',
    body: SessionEndBody,
    response: SessionsEndedResponse,
    tags: ['user centre'],
  }),
  endOtherSessions: defineRoute({
    method: 'POST',
    path: '/api/user/sessions/endOthers',
    response: SessionsEndedResponse,
    tags: ['user centre'],
  }),
  /** The fast-transfer day tokens and Linux commands issued to the user today, still valid. */
  credentials: defineRoute({
    method: 'GET',
    path: '/api/user/credentials',
    response: IssuedCredentialsResponse,
    tags: ['user centre'],
  }),
  revokeCredential: defineRoute({
    method: 'POST',
    path: '/api/user/credentials/revoke',
    body: CredentialRevokeBody,
    response: EmptyResponse,
    tags: ['user centre'],
  }),
};

/** The user's accounts (spec §4, §9). */
export const AccountRoutes = {
  /** Grouped over the user's centres, with status, balance and expiry. */
  list: defineRoute({
    method: 'GET',
    path: '/api/account/list',
    response: UserAccountsResponse,
    tags: ['accounts'],
  }),
  /** The accounts that need the alert bar, with their reasons. */
  alerts: defineRoute({
    method: 'GET',
    path: '/api/account/alerts',
    response: AccountAlertsResponse,
    tags: ['accounts'],
  }),
};

/** Clusters and their services (spec §7), at the paths the spec's clients use. */
export const ClusterRoutes = {
  usersDetail: defineRoute({
    method: 'GET',
    path: '/api/computeuser/queryClusterUsersDetail.action',
    response: ClusterUsersDetailResponse,
    tags: ['clusters'],
  }),
  /** The user's clusters with their compute user and account details. */
  baseInfo: defineRoute({
    method: 'GET',
    path: '/api/computeuser/queryClusterUserBaseInfo.action',
    response: ClusterUserBaseInfoResponse,
    tags: ['clusters'],
  }),
  canApply: defineRoute({
    method: 'GET',
    path: '/api/resource/queryCanApplyClusterInfos.action',
    query: CanApplyQuery,
    response: CanApplyResponse,
    tags: ['clusters'],
  }),
  /** The body is optional (form or JSON): without it the answer covers all of the user's clusters. */
  accessPaths: defineRoute({
    method: 'POST',
    path: '/api/resource/storage/queryMultiClusterAccessPath.action',
    body: AccessPathBody,
    response: AccessPathResponse,
    tags: ['clusters'],
  }),
  /** spec §7: the user's home and compute user on a cluster (default: the first). */
  efileInfo: defineRoute({
    method: 'GET',
    path: '/model-zoo/proxy/efile/info',
    query: EfileInfoQuery,
    response: EfileInfoResponse,
    tags: ['clusters'],
  }),
  /** The enabled efile URLs of a cluster (anonymous: share recipients use it). */
  publicEfileUrls: defineRoute({
    method: 'GET',
    path: '/api/center/publicEfileUrls.action',
    query: PublicEfileUrlsQuery,
    response: PublicEfileUrlsResponse,
    tags: ['clusters'],
  }),
  /** Every current cluster: the manager's view (spec §6). */
  all: defineRoute({
    method: 'GET',
    path: '/api/center/queryCurClusterList.action',
    query: ClusterListQuery,
    response: ClusterListResponse,
    tags: ['clusters'],
  }),
};
