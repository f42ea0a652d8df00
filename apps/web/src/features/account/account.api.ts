import type { AuthConfig, CurrentUser, LoginBody } from '@hpc/contracts';
import { apiClient } from '../../shared/api/client';

/** The portal's identity calls the browser makes (contracts' identity.ts; paths of spec §7 where it names them). */
export const accountApi = {
  /** Sets the session cookie; wrong credentials answer 401 `LOGIN_FAILED`, too many tries 429 `LOGIN_THROTTLED`. */
  login: (body: LoginBody) => apiClient.post<CurrentUser | null>('/api/auth/login', { json: body }),
  logout: () => apiClient.post<null>('/api/auth/logout'),
  /** spec §3 "User": id, userInfo, tokenList (one token per cluster), and the session's CSRF token. */
  userInfo: (signal?: AbortSignal) => apiClient.get<CurrentUser>('/api/user/info', undefined, { signal }),
  /** Whether single sign-on is configured, before anyone is logged in. */
  authConfig: (signal?: AbortSignal) => apiClient.get<AuthConfig>('/api/auth/config', undefined, { signal }),
};
