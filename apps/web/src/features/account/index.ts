// The account feature's public face for the app shell and other features.
export { installAccount } from './install-account';
export { RequireSession } from './require-session';
export { useSession, SESSION_QUERY_KEY, sessionQueryOptions, type Session } from './use-session';
export { useLogin, useLogout, useAuthConfig } from './use-auth';
export {
  handleSessionExpired,
  setSessionExpiryNavigator,
  onSessionEnd,
  endSession,
  markSessionActive,
} from './session-expiry';
export { isAreaMode } from './area-mode';
export { safeRedirect, loginPathFor, LOGIN_PATH } from './login-redirect';
