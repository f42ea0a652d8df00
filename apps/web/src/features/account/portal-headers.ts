import { CSRF_COOKIE, CSRF_HEADER } from '@hpc/contracts';

let lastCsrfToken: string | null = null;

/** Keeps the CSRF token of the last login or `/api/user/info` answer, for when the cookie cannot be read. */
export function rememberCsrfToken(token: string | null | undefined): void {
  if (token) lastCsrfToken = token;
}

/** The value of a cookie of this page, or null. */
export function readCookie(
  name: string,
  cookies = typeof document === 'undefined' ? '' : document.cookie,
): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return part.slice(eq + 1).trim();
      }
    }
  }
  return null;
}

/**
 * The CSRF header of the double-submit pattern: the readable cookie is the truth (it follows a new login in another
 * tab), the remembered token the fallback.
 */
export function csrfHeaders(cookies?: string): Record<string, string> {
  const token = readCookie(CSRF_COOKIE, cookies) ?? lastCsrfToken;
  return token ? { [CSRF_HEADER]: token } : {};
}

/** Whether this browser may have a session: the portal sets the CSRF cookie with the session cookie, which is HttpOnly. */
export const hasSessionHint = (cookies?: string): boolean => readCookie(CSRF_COOKIE, cookies) !== null;
