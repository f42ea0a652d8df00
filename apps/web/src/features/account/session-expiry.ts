import type { ApiError } from '@hpc/api-client';
import { PortalCodes } from '@hpc/contracts';
import { session } from '../../shared/utils/storage';
import { isAreaMode } from './area-mode';
import { LOGIN_PATH, loginPathFor, ssoLoginPathFor } from './login-redirect';

export type ExpiryAction = { type: 'ignore' } | { type: 'close' } | { type: 'navigate'; to: string };

/** Paths that work without a session: a 401 there is an answer to show, not a reason to leave. */
export const PUBLIC_PATH_PREFIXES = [LOGIN_PATH, '/404', '/share', '/s/'];

/** 401 codes that do not mean "the session is gone" (a wrong password is answered with 401 too). */
const NOT_EXPIRY_CODES = new Set<string>([
  PortalCodes.loginFailed,
  PortalCodes.loginThrottled,
  PortalCodes.csrf,
]);

/**
 * What to do with a 401 (spec §2 "Login timeout"): close the window in area mode, else go to the login page through
 * the SSO redirect call (single sign-on when configured). Only
 * a session that this tab had can time out: a visitor who never logged in may browse the public catalogues, and
 * pages that need a user send them to login themselves (`<RequireSession>`).
 */
export function sessionExpiryAction(input: {
  areaMode: boolean;
  hadSession: boolean;
  location: { pathname: string; search: string; hash: string };
  code?: string;
}): ExpiryAction {
  if (!input.hadSession) return { type: 'ignore' };
  if (input.code && NOT_EXPIRY_CODES.has(input.code)) return { type: 'ignore' };
  const { pathname } = input.location;
  if (
    PUBLIC_PATH_PREFIXES.some((p) => pathname === p || pathname.startsWith(p.endsWith('/') ? p : `${p}/`))
  ) {
    return { type: 'ignore' };
  }
  if (input.areaMode) return { type: 'close' };
  return { type: 'navigate', to: ssoLoginPathFor(input.location) };
}

type Navigate = (to: string) => void;
/** Default: a full load of the login page, which also drops every cached answer of the old session. */
let navigate: Navigate = (to) => window.location.assign(to);
const cleanups = new Set<() => void>();
let handling = false;

/** Lets the app use its router instead of a full page load. */
export function setSessionExpiryNavigator(fn: Navigate): void {
  navigate = fn;
}

/** Registers what to forget when the session ends (cluster tokens, service cache); returns the unregister. */
export function onSessionEnd(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

const ACTIVE_KEY = 'hpc.session.active';

/** Notes that this tab has a live session (each answer of `/api/user/info`, each login). */
export function markSessionActive(): void {
  session.set(ACTIVE_KEY, '1');
}

const hadSession = () => session.get(ACTIVE_KEY) === '1';

/** Runs the registered cleanups (401, logout, a new login) and forgets that this tab had a session. */
export function endSession(): void {
  session.set(ACTIVE_KEY, '0');
  for (const c of cleanups) c();
}

/**
 * The 401 handler for the shared API client. Several calls failing at once lead to one navigation only; the
 * flag is cleared once the user is on another page (the login page), so a later expiry is handled again.
 */
export function handleSessionExpired(error?: Pick<ApiError, 'code'>): void {
  const action = sessionExpiryAction({
    areaMode: isAreaMode(),
    hadSession: hadSession(),
    location: window.location,
    code: error?.code,
  });
  if (action.type === 'ignore' || handling) return;
  handling = true;
  endSession();
  if (action.type === 'close') {
    window.close();
    // A window the user opened by hand (a bookmark with ?area=) cannot be closed by script: show the login instead.
    setTimeout(() => {
      if (!window.closed) navigate(loginPathFor(window.location));
      handling = false;
    }, 300);
    return;
  }
  navigate(action.to);
  setTimeout(() => (handling = false), 1_000);
}
