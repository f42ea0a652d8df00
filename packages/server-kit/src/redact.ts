/**
 * Credentials never reach the logs (issue 10 §2.4): one request line per call logs its URL, and a URL may carry a
 * bearer credential where a browser cannot send a header (`?ticket=`, `?token=`), a share's token, an OpenID
 * callback's `code`/`state`, an extraction code, or a Linux command's token as a path segment. These are replaced by
 * `[redacted]` before the line is written; the other parameters stay, so the line is still useful.
 */
const SECRET_PARAMS = new Set([
  'token',
  'ticket',
  'sharetoken',
  'password',
  'code',
  'state',
  'downkey',
  'access_token',
  'id_token',
  'refresh_token',
]);
/** Path segments that are credentials: `/linux/{put,tar,get}/<token>` (Linux commands). */
const SECRET_SEGMENT = /(\/linux\/(?:put|tar|get)\/)[^/?#]+/g;
const REDACTED = '[redacted]';

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(SECRET_SEGMENT, `$1${REDACTED}`);
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        /* a malformed escape: judge the raw name */
      }
      return SECRET_PARAMS.has(key.replace(/\[\]$/, '').toLowerCase()) ? `${rawKey}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Header names whose values are credentials, for pino's `redact` (in case a request's headers are logged). */
export const SECRET_HEADER_PATHS = [
  'req.headers.token',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers["x-request-token"]',
  // The Linux commands' scoped token (contracts' LINUX_TOKEN_HEADER).
  'req.headers["x-linux-token"]',
  'res.headers["set-cookie"]',
];
