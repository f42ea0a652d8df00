import { session } from '../shared/utils/storage';

/** spec §9: a script part that has not loaded after this long has failed. */
export const PART_LOAD_TIMEOUT_MS = 120_000;

/** spec §8's three load errors: the part is not on the server (any more), took too long, or anything else. */
export type PartLoadErrorKind = 'missing' | 'timeout' | 'other';

export class PartLoadError extends Error {
  readonly kind: PartLoadErrorKind;

  constructor(kind: PartLoadErrorKind, cause?: unknown) {
    super(`page part failed to load (${kind})`, cause === undefined ? undefined : { cause });
    this.name = 'PartLoadError';
    this.kind = kind;
  }
}

export const isPartLoadError = (e: unknown): e is PartLoadError => e instanceof PartLoadError;

/** The part's address in the browser's error ("Failed to fetch dynamically imported module: <url>"), if any. */
export function partUrlOf(error: unknown): string | null {
  const text = error instanceof Error ? error.message : String(error);
  const m = /(https?:\/\/[^\s'"]+|\/assets\/[^\s'"]+)/.exec(text);
  return m ? m[1]! : null;
}

/**
 * Why a part did not load: asks the server for it once more, bypassing the cache. A 404 means it is gone: the tab
 * was loaded from a release that has since been replaced (the parts are named by content hash).
 */
export async function classifyPartFailure(
  error: unknown,
  probe: (url: string) => Promise<number> = async (url) =>
    (await fetch(url, { method: 'HEAD', cache: 'no-store' })).status,
): Promise<PartLoadErrorKind> {
  if (isPartLoadError(error)) return error.kind;
  const url = partUrlOf(error);
  if (!url) return 'other';
  try {
    return (await probe(url)) === 404 ? 'missing' : 'other';
  } catch {
    return 'other';
  }
}

const RELOAD_KEY = 'hpc.partReload';

/**
 * A tab left open across a redeploy asks for parts that no longer exist: reloading once fetches the new index.html
 * (never cached) and with it the new names. Once per tab until a part loads again, so a part that is really
 * missing ends in the error page instead of reloading for ever.
 */
export function reloadOnceForMissingPart(reload: () => void = () => window.location.reload()): boolean {
  if (session.get(RELOAD_KEY) === '1') return false;
  session.set(RELOAD_KEY, '1');
  reload();
  return true;
}

/** A part loaded: the next missing one may reload again. */
export function partLoaded(): void {
  if (session.get(RELOAD_KEY) === '1') session.set(RELOAD_KEY, '0');
}

/**
 * Loads a lazily loaded part with the load timeout of spec §9; a failure becomes a {@link PartLoadError}. A part
 * that is missing after a redeploy reloads the page once with `reload` (the returned promise then never settles:
 * the page is going away). The router passes a reload of the address being navigated to: its pages load before
 * the address changes.
 */
export function loadPart<T>(
  load: () => Promise<T>,
  timeoutMs = PART_LOAD_TIMEOUT_MS,
  reload?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PartLoadError('timeout')), timeoutMs);
    load().then(
      (m) => {
        clearTimeout(timer);
        partLoaded();
        resolve(m);
      },
      async (e: unknown) => {
        clearTimeout(timer);
        const kind = await classifyPartFailure(e);
        if (kind === 'missing' && reloadOnceForMissingPart(reload)) return;
        reject(new PartLoadError(kind, e));
      },
    );
  });
}
