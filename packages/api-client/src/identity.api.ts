import type {
  AccountAlertsResponse,
  AuthConfigResponse,
  ClusterListResponse,
  ClusterUserBaseInfoResponse,
  CurrentUserResponse,
  EfileInfoResponse,
  EmptyResponse,
  LoginBody,
  PasswordChangeBody,
  PublicEfileUrlsResponse,
  TokenRefreshResponse,
  UserAccountsResponse,
  UserPreferencesBody,
  UserPreferencesResponse,
  UserProfileResponse,
} from '@hpc/contracts';
import { SiteRoutes } from '@hpc/contracts';
import type { ApiClient } from './client';
import type { DataOf } from './envelope';

export type AccountAlertsData = DataOf<typeof AccountAlertsResponse>;
type Empty = DataOf<typeof EmptyResponse>;

/** Per-call options of the read calls. */
interface Read {
  signal?: AbortSignal;
}

/**
 * The portal's identity calls (contracts/identity.ts and site.ts; spec §7 paths where it names them): session,
 * tokens, clusters, accounts, the user's own settings. `client` carries the session cookie and the CSRF and
 * request-time headers of the caller's environment.
 */
export function identityApi(client: ApiClient) {
  return {
    auth: {
      /** Whether single sign-on is configured, before anyone is logged in. */
      config: (o: Read = {}) =>
        client.get<DataOf<typeof AuthConfigResponse>>('/api/auth/config', undefined, o),
      /** Sets the session cookie; wrong credentials answer 401 `LOGIN_FAILED`, too many tries 429 `LOGIN_THROTTLED`. */
      login: (body: LoginBody) =>
        client.post<DataOf<typeof CurrentUserResponse>>('/api/auth/login', { json: body }),
      logout: () => client.post<Empty>('/api/auth/logout'),
      /** New per-cluster tokens for the current session, without the rest of `/api/user/info`. */
      refresh: (o: Read = {}) =>
        client.post<DataOf<typeof TokenRefreshResponse>>('/api/auth/refresh', { signal: o.signal }),
    },
    user: {
      /** spec §3 "User": id, userInfo, tokenList (one token per cluster), and the session's CSRF token. */
      info: (o: Read = {}) => client.get<DataOf<typeof CurrentUserResponse>>('/api/user/info', undefined, o),
      profile: (o: Read = {}) =>
        client.get<DataOf<typeof UserProfileResponse>>('/api/user/profile', undefined, o),
      changePassword: (body: PasswordChangeBody) => client.post<Empty>('/api/user/password', { json: body }),
      preferences: (o: Read = {}) =>
        client.get<DataOf<typeof UserPreferencesResponse>>('/api/user/preferences', undefined, o),
      savePreferences: (body: UserPreferencesBody) =>
        client.request<DataOf<typeof UserPreferencesResponse>>('/api/user/preferences', {
          method: 'PUT',
          json: body,
        }),
    },
    accounts: {
      /** The user's accounts grouped over their centres, with status, balance and expiry. */
      list: (o: Read = {}) =>
        client.get<DataOf<typeof UserAccountsResponse>>('/api/account/list', undefined, o),
      /** The accounts that need the alert bar, with their reasons (thresholds applied with the portal's clock). */
      alerts: (o: Read = {}) => client.get<AccountAlertsData>('/api/account/alerts', undefined, o),
    },
    clusters: {
      /** The user's clusters with their compute user and account details (spec §7). */
      baseInfo: (o: Read = {}) =>
        client.get<DataOf<typeof ClusterUserBaseInfoResponse>>(
          '/api/computeuser/queryClusterUserBaseInfo.action',
          undefined,
          o,
        ),
      /** Every current cluster: the manager's view (spec §6); others are refused. */
      all: (o: Read = {}) =>
        client.get<DataOf<typeof ClusterListResponse>>(
          '/api/center/queryCurClusterList.action',
          undefined,
          o,
        ),
      /** The enabled efile URLs the portal publishes for a cluster (anonymous: share recipients use it). */
      publicEfileUrls: (clusterId: string, o: Read = {}) =>
        client.get<DataOf<typeof PublicEfileUrlsResponse>>(
          '/api/center/publicEfileUrls.action',
          { clusterId },
          o,
        ),
      /** Spec §7 `GET /model-zoo/proxy/efile/info`: the user's home and compute user on a cluster. */
      efileInfo: (clusterId: string, o: Read = {}) =>
        client.get<DataOf<typeof EfileInfoResponse>>('/model-zoo/proxy/efile/info', { clusterId }, o),
    },
    site: {
      /** What the operators configure for every page (footer, analytics). */
      config: (o: Read = {}) => client.request(SiteRoutes.config, {}, o),
    },
  };
}
export type IdentityCalls = ReturnType<typeof identityApi>;
