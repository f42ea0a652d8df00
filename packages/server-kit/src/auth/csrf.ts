import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER, PortalCodes } from '@hpc/contracts';
import { AppError } from '../app-error';
import { ServerKitText } from '../messages';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isStateChanging = (req: FastifyRequest): boolean => UNSAFE.has(req.method);

/** Constant-time comparison of two strings (different lengths are simply unequal). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export interface CsrfCheckOptions {
  /** Which requests are protected (e.g. state-changing calls under /api/ except login). */
  applies(req: FastifyRequest): boolean;
  /**
   * The token bound to the caller's session, or null when the request carries no live session: such a request
   * has no ambient authority to forge, so it passes here and meets the route's own 401.
   */
  expected(req: FastifyRequest): Promise<string | null>;
  header?: string;
}

/**
 * An `onRequest` hook for the double-submit pattern with a session-bound token: the page reads the token from a
 * readable cookie (or the login answer) and echoes it in a header that a cross-site form or image cannot set.
 * Binding it to the session (rather than comparing cookie to header) also defeats cookie tossing from a sibling
 * subdomain. Refuses with 403, code CSRF.
 */
export function csrfCheck(opts: CsrfCheckOptions) {
  const header = opts.header ?? CSRF_HEADER;
  return async (req: FastifyRequest): Promise<void> => {
    if (!opts.applies(req)) return;
    const expected = await opts.expected(req);
    if (expected === null) return;
    const sent = req.headers[header];
    if (typeof sent !== 'string' || !safeEqual(sent, expected)) throw new AppError(PortalCodes.csrf);
  };
}

/** The origin (scheme://host[:port]) a request was addressed to, as the browser sees it. */
export function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/**
 * Login CSRF defence for calls that have no session yet (the login itself): a browser always sends `Origin` on a
 * cross-origin POST and `Sec-Fetch-Site` in modern engines, so a foreign value of either is refused. A request with
 * neither header is not from a browser page (curl, scripts) and passes: it cannot ride on a victim's cookies.
 */
export function assertSameOrigin(req: FastifyRequest, allowedOrigins: readonly string[]): void {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site') throw new AppError(PortalCodes.csrf, ServerKitText.crossSiteRefused);
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const allowed = allowedOrigins.length > 0 ? allowedOrigins : [requestOrigin(req)];
  if (!allowed.includes(origin)) throw new AppError(PortalCodes.csrf, ServerKitText.foreignOriginRefused);
}
