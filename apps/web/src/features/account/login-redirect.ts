/** Where the app lands after login when no (valid) `redirect` is given. */
export const DEFAULT_AFTER_LOGIN = '/main-page';
export const LOGIN_PATH = '/login';

/**
 * The `redirect` of `/login?redirect=…`, kept only when it is a path on this site. Anything else (`//evil.example`,
 * `https://…`, `/\evil`, `javascript:`) would turn the login page into an open redirect, so it becomes the default.
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return DEFAULT_AFTER_LOGIN;
  // Control characters are dropped by URL parsers, which could turn "/\t/evil" into "//evil".
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return DEFAULT_AFTER_LOGIN;
  // Never send the user back to the login page itself.
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`) || raw.startsWith(`${LOGIN_PATH}/`)) {
    return DEFAULT_AFTER_LOGIN;
  }
  return raw;
}

/** `/login?redirect=<where the user is>`; the login page itself is not a useful place to come back to. */
export function loginPathFor(current: { pathname: string; search?: string; hash?: string }): string {
  const here = `${current.pathname}${current.search ?? ''}${current.hash ?? ''}`;
  const target = safeRedirect(here);
  return target === DEFAULT_AFTER_LOGIN && here !== DEFAULT_AFTER_LOGIN
    ? LOGIN_PATH
    : `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}

/** The portal's login redirect (spec §7): to single sign-on when it is configured, else to the login page. */
export const SSO_REDIRECT_PATH = '/api/auth/loginSsoRedirect.action';

/**
 * Where a timed-out session goes outside area mode (spec §2 "Login timeout"): through the SSO redirect call, with
 * the way back. Without single sign-on the portal answers it with `/login?redirect=…`.
 */
export function ssoLoginPathFor(current: { pathname: string; search?: string; hash?: string }): string {
  const login = new URL(loginPathFor(current), 'http://x');
  const back = login.searchParams.get('redirect');
  return back ? `${SSO_REDIRECT_PATH}?redirect=${encodeURIComponent(back)}` : SSO_REDIRECT_PATH;
}
