import type {
  AccountAlertsResponse,
  CredentialRevokeBody,
  LoginBody,
  PasswordChangeBody,
  SessionEndBody,
  UserPreferencesBody,
} from '@hpc/contracts';
import { AccountRoutes, AuthRoutes, ClusterRoutes, SiteRoutes, UserRoutes } from '@hpc/contracts';
import type { ApiClient } from './client';
import type { DataOf } from './envelope';

export type AccountAlertsData = DataOf<typeof AccountAlertsResponse>;

/** Per-call options of the read calls. */
interface Read {
  signal?: AbortSignal;
}

/**
 * The portal's identity calls (contracts' `identity.routes.ts` and `site.routes.ts`; spec §7 paths where it names
 * them): session, tokens, clusters, accounts, the user's own settings. `client` carries the session cookie and the
 * CSRF and request-time headers of the caller's environment. Each is one call of a declared route; the signatures
 * are the web's.
 */
export function identityApi(client: ApiClient) {
  return {
    auth: {
      /** Whether single sign-on is configured, before anyone is logged in. */
      config: (o: Read = {}) => client.request(AuthRoutes.config, {}, o),
      /** Sets the session cookie; wrong credentials answer 401 `LOGIN_FAILED`, too many tries 429 `LOGIN_THROTTLED`. */
      login: (body: LoginBody) => client.request(AuthRoutes.login, { body }),
      logout: () => client.request(AuthRoutes.logout),
      /** New per-cluster tokens for the current session, without the rest of `/api/user/info`. */
      refresh: (o: Read = {}) => client.request(AuthRoutes.refresh, {}, o),
    },
    user: {
      /** spec §3 "User": id, userInfo, tokenList (one token per cluster), and the session's CSRF token. */
      info: (o: Read = {}) => client.request(UserRoutes.info, {}, o),
      profile: (o: Read = {}) => client.request(UserRoutes.profile, {}, o),
      /** Ends the user's other sessions (`endedSessions`); the calling one stays. */
      changePassword: (body: PasswordChangeBody) => client.request(UserRoutes.changePassword, { body }),
      /** The user's live sessions, the calling one marked `current`. */
      sessions: (o: Read = {}) => client.request(UserRoutes.sessions, {}, o),
      /** Signs out one of the user's sessions (its cluster tokens stop at once too). */
      endSession: (body: SessionEndBody) => client.request(UserRoutes.endSession, { body }),
      /** Signs out every session of the user but the calling one. */
      endOtherSessions: () => client.request(UserRoutes.endOtherSessions),
      /** The fast-transfer day tokens and Linux commands issued to the user today, still valid. */
      credentials: (o: Read = {}) => client.request(UserRoutes.credentials, {}, o),
      revokeCredential: (body: CredentialRevokeBody) => client.request(UserRoutes.revokeCredential, { body }),
      preferences: (o: Read = {}) => client.request(UserRoutes.preferences, {}, o),
      savePreferences: (body: UserPreferencesBody) => client.request(UserRoutes.savePreferences, { body }),
    },
    accounts: {
      /** The user's accounts grouped over their centres, with status, balance and expiry. */
      list: (o: Read = {}) => client.request(AccountRoutes.list, {}, o),
      /** The accounts that need the alert bar, with their reasons (thresholds applied with the portal's clock). */
      alerts: (o: Read = {}) => client.request(AccountRoutes.alerts, {}, o),
    },
    clusters: {
      /** The user's clusters with their compute user and account details (spec §7). */
      baseInfo: (o: Read = {}) => client.request(ClusterRoutes.baseInfo, {}, o),
      /** Every current cluster: the manager's view (spec §6); others are refused. */
      all: (o: Read = {}) => client.request(ClusterRoutes.all, {}, o),
      /** The enabled efile URLs the portal publishes for a cluster (anonymous: share recipients use it). */
      publicEfileUrls: (clusterId: string, o: Read = {}) =>
        client.request(ClusterRoutes.publicEfileUrls, { query: { clusterId } }, o),
      /** Spec §7 `GET /model-zoo/proxy/efile/info`: the user's home and compute user on a cluster. */
      efileInfo: (clusterId: string, o: Read = {}) =>
        client.request(ClusterRoutes.efileInfo, { query: { clusterId } }, o),
    },
    site: {
      /** What the operators configure for every page (footer, analytics). */
      config: (o: Read = {}) => client.request(SiteRoutes.config, {}, o),
    },
  };
}
export type IdentityCalls = ReturnType<typeof identityApi>;
