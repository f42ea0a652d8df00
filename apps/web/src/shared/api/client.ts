import { ApiClient, catalogApi, identityApi, type ApiError } from '@hpc/api-client';
import { PortalCodes } from '@hpc/contracts';
import { languageHeaders, RequestTimeouts } from './request-options';

type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * Lets the identity work react to a 401 (e.g. send the user to /login or the SSO redirect). The call still
 * rejects and its message is still shown; the handler only decides where the user goes next.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

/**
 * For the clients of the clusters' services (efile): their 401 with code "401" means the portal session their token
 * was issued for has ended (logout in another tab, password change, "sign out", an operator): the same as a timed-out
 * session, so the page goes to the login page (spec §2). Their other 401s (1406, a bad or expired token) are left
 * to the caller, who may refresh the token.
 */
export function reportClusterUnauthorized(error: ApiError): void {
  if (error.code === PortalCodes.unauthorized) unauthorizedHandler?.(error);
}

type HeadersHook = () => Record<string, string> | Promise<Record<string, string>>;
let headersHook: HeadersHook | null = null;

/** Lets the identity work add headers (CSRF token) to every portal call. */
export function setExtraHeaders(hook: HeadersHook | null): void {
  headersHook = hook;
}

/** The one client of the portal's API (spec §9's main client): same origin, the session cookie rides along. */
export const apiClient = new ApiClient({
  baseUrl: import.meta.env.VITE_API_BASE_URL ?? '',
  timeoutMs: RequestTimeouts.main,
  headers: async () => ({ ...languageHeaders(), ...(await headersHook?.()) }),
  onUnauthorized: (error) => unauthorizedHandler?.(error),
});

/** The catalogue calls (images, models, apps, model files and copies), typed by the contracts. */
export const api = catalogApi(apiClient);
/** The identity calls (session, tokens, clusters, accounts, the user's settings, the site's config). */
export const identity = identityApi(apiClient);
