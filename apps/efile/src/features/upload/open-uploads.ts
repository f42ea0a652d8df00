import type { PartialHandle } from '../../userfs/types';

/** What a chunk request needs once its upload is known: the session, where it goes, and the open partial file. */
export interface OpenUpload<P> {
  id: string;
  prep: P;
  fh: PartialHandle;
  /**
   * Chunk numbers stored, as this process knows them: loaded from the database when the entry opens, then kept up to
   * date by its own writes. Test GETs answer from it; another instance's chunks unknown here are only sent again.
   */
  stored: Set<number>;
  /** When the session's updated_at was last refreshed (the sweep's liveness mark). */
  touchedAt: number;
  /** Requests using `fh` right now; the descriptor closes when an evicted entry's last user is done. */
  refs: number;
  lastUsed: number;
  evicted: boolean;
}

/**
 * Partial files of uploads in progress, kept open between chunks. A chunk upload is a test GET and a POST per MiB;
 * resolving the path (realpath, lstat of target and partial) and opening/closing the partial for each were most of
 * a chunk's thread-pool hops. The first chunk request of an upload does the full check and opens the partial with
 * O_NOFOLLOW; later chunks of the same request shape (same user scope, target and identifier: `key`) write through
 * that descriptor. Writing through the descriptor is also the safer of the two: a folder swapped for a link after
 * the check cannot redirect the bytes, and finalize re-resolves the path anyway before renaming into place.
 * Entries close after `idleMs` without use, and when the upload finishes, is deleted or is swept.
 */
export function openUploads<P>(idleMs = 30_000, max = 512) {
  const byKey = new Map<string, OpenUpload<P>>();
  const keyOf = new Map<string, string>();

  const close = (e: OpenUpload<P>) => void e.fh.close().catch(() => undefined);
  const drop = (key: string, e: OpenUpload<P>) => {
    byKey.delete(key);
    if (keyOf.get(e.id) === key) keyOf.delete(e.id);
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
    acquire(key: string): OpenUpload<P> | undefined {
      const e = byKey.get(key);
      if (!e) return undefined;
      e.refs++;
      e.lastUsed = Date.now();
      return e;
    },
    /** The entry without taking it (test GETs only read the session id). */
    peek(key: string): OpenUpload<P> | undefined {
      return byKey.get(key);
    },
    /**
     * Registers a freshly opened partial. Chunks of a new upload arrive together and may each have opened one: the
     * first registered wins, the others' descriptors are closed and they use the winner's.
     */
    adopt(
      key: string,
      id: string,
      prep: P,
      fh: PartialHandle,
      stored: Set<number>,
      touchedAt: number,
    ): OpenUpload<P> {
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
      const e: OpenUpload<P> = {
        id,
        prep,
        fh,
        stored,
        touchedAt,
        refs: 1,
        lastUsed: Date.now(),
        evicted: false,
      };
      byKey.set(key, e);
      keyOf.set(id, key);
      return e;
    },
    release(e: OpenUpload<P>): void {
      e.refs--;
      e.lastUsed = Date.now();
      if (e.evicted && e.refs === 0) close(e);
    },
    /** Forgets the upload `id` (finished, deleted, swept); its descriptor closes once no request uses it. */
    evict(id: string): void {
      const key = keyOf.get(id);
      const e = key === undefined ? undefined : byKey.get(key);
      if (key !== undefined && e) drop(key, e);
    },
    closeAll(): void {
      clearInterval(timer);
      for (const [key, e] of byKey) drop(key, e);
    },
  };
}
export type OpenUploads<P> = ReturnType<typeof openUploads<P>>;
