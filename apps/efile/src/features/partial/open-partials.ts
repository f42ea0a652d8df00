import type { PartialHandle } from '../../userfs/types';

/**
 * A partial file held open for a session, with what its front door keeps beside it (`state`: for a chunk upload
 * its target and the chunks stored; for fast-transfer ranges the session's generation).
 */
export interface OpenPartial<S> {
  id: string;
  fh: PartialHandle;
  state: S;
  /** Requests using `fh` right now; the descriptor closes when an evicted entry's last user is done. */
  refs: number;
  lastUsed: number;
  evicted: boolean;
}

/**
 * Partial files of sessions in progress, kept open between their pieces. A chunk upload is a test GET and a POST per
 * MiB, a fast-transfer file a range per few MiB; resolving the path and opening/closing the partial for each were
 * most of a piece's thread-pool hops, and in unix mode an open and a close are two requests to the user's worker
 * each. The first piece request of a session does the full check and opens the partial with O_NOFOLLOW; later
 * pieces of the same request shape (`key`: the same user scope and session) write through that descriptor. Writing
 * through the descriptor is also the safer of the two: a folder swapped for a link after the check cannot redirect
 * the bytes, and finalize re-resolves the path anyway before renaming into place. Entries close after `idleMs`
 * without use, and when the session finishes, is deleted or is swept.
 */
export function openPartials<S>(idleMs = 30_000, max = 512) {
  const byKey = new Map<string, OpenPartial<S>>();
  const keysOf = new Map<string, Set<string>>();

  const close = (e: OpenPartial<S>) => void e.fh.close().catch(() => undefined);
  const drop = (key: string, e: OpenPartial<S>) => {
    byKey.delete(key);
    const keys = keysOf.get(e.id);
    keys?.delete(key);
    if (keys?.size === 0) keysOf.delete(e.id);
    e.evicted = true;
    if (e.refs === 0) close(e);
  };
  const timer = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const [key, e] of byKey) if (e.refs === 0 && e.lastUsed < cutoff) drop(key, e);
    },
    Math.max(1000, idleMs / 3),
  );
  timer.unref();

  return {
    /** The open entry for this request shape (counted as in use until `release`), or undefined. */
    acquire(key: string): OpenPartial<S> | undefined {
      const e = byKey.get(key);
      if (!e) return undefined;
      e.refs++;
      e.lastUsed = Date.now();
      return e;
    },
    /** The entry without taking it (test GETs only read what is stored). */
    peek(key: string): OpenPartial<S> | undefined {
      return byKey.get(key);
    },
    /**
     * Registers a freshly opened partial. Pieces of a new session arrive together and may each have opened one: the
     * first registered wins, the others' descriptors are closed and they use the winner's.
     */
    adopt(key: string, id: string, fh: PartialHandle, state: S): OpenPartial<S> {
      const existing = byKey.get(key);
      if (existing) {
        void fh.close().catch(() => undefined);
        existing.refs++;
        return existing;
      }
      if (byKey.size >= max) {
        for (const [k, e] of byKey)
          if (e.refs === 0) {
            drop(k, e);
            break;
          }
      }
      const e: OpenPartial<S> = { id, fh, state, refs: 1, lastUsed: Date.now(), evicted: false };
      byKey.set(key, e);
      let keys = keysOf.get(id);
      if (!keys) keysOf.set(id, (keys = new Set()));
      keys.add(key);
      return e;
    },
    release(e: OpenPartial<S>): void {
      e.refs--;
      e.lastUsed = Date.now();
      if (e.evicted && e.refs === 0) close(e);
    },
    /** Forgets the session `id` (finished, deleted, swept); its descriptors close once no request uses them. */
    evict(id: string): void {
      for (const key of [...(keysOf.get(id) ?? [])]) {
        const e = byKey.get(key);
        if (e) drop(key, e);
      }
    },
    /** Entries open now (tests count them). */
    get size(): number {
      return byKey.size;
    },
    closeAll(): void {
      clearInterval(timer);
      for (const [key, e] of byKey) drop(key, e);
    },
  };
}
export type OpenPartials<S> = ReturnType<typeof openPartials<S>>;
