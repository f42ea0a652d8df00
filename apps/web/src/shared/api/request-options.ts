import { Limits } from '@hpc/contracts';
import i18n from '../i18n/i18n';
import { serverLocale } from '../i18n/languages';

/**
 * The request clients' deadlines of spec §9: 30 s by default (the anonymous clients: share links, health checks),
 * 300 s on the main client (the portal's API) and 3000 s on the second (each cluster's file service, which also
 * asks for answers that are never cached); single calls may set their own (list 180 s, copy/move 3000 s, share
 * 60 s). A script part's 120 s is app/part-loading.ts's.
 */
export const RequestTimeouts = {
  default: Limits.timeouts.default,
  main: 300_000,
  second: 3_000_000,
} as const;

/**
 * `Accept-Language` of the user's language on every call, so that the servers answer their messages in it (spec §8
 * shows some of them as they are; issue 13 §1.3).
 */
export function languageHeaders(): Record<string, string> {
  // The pseudo-locale asks for English (the server has no pseudo texts).
  return { 'accept-language': serverLocale(i18n.language) };
}

/** The second client's `no-cache` (spec §9): file listings and infos are always asked of the server again. */
export const NO_CACHE_HEADERS = { 'cache-control': 'no-cache' } as const;
