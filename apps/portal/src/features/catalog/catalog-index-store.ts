import { CatalogIndex, type IndexItem } from './catalog-index';
import type { CatalogKind } from '../../db/tables/catalog.tables';
import { LRUCache } from 'lru-cache';

/** The catalogue's version row: `version` for structural writes, `countsVersion` for download counts. */
export interface CatalogVersion {
  version: number;
  countsVersion: number;
}

/** What the store reads from the repository. */
export interface IndexSource {
  readVersion(kind: CatalogKind): Promise<CatalogVersion>;
  loadIndexItems(kind: CatalogKind): Promise<IndexItem[]>;
  loadDownloadCounts(kind: CatalogKind): Promise<Array<{ id: number; downloadCount: number }>>;
}

export interface IndexStoreOptions {
  /** How often the version row is re-read before answering (ms). */
  checkIntervalMs?: number;
  /** Answers kept in the LRU. */
  cacheSize?: number;
  now?: () => number;
}

/**
 * Keeps one catalogue's index fresh and caches whole answers. Every answer goes through `read`, which re-reads the
 * version row at most once per `checkIntervalMs` (one in-flight load or check shared by concurrent requests) and
 * rebuilds the index, or only refreshes the download counts, when another writer changed them.
 */
export class CatalogIndexStore {
  private index: CatalogIndex | null = null;
  private known: CatalogVersion = { version: -1, countsVersion: -1 };
  private lastCheck = 0;
  private pending: Promise<void> | null = null;
  /** Bumped whenever the index changes, so an answer computed from an older index is never served. */
  private generation = 0;
  /** Set by a local write: the next read must re-check whatever the time. */
  private forced = true;
  private readonly cache: LRUCache<string, { generation: number; value: unknown }>;
  private readonly checkIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: IndexSource,
    readonly kind: CatalogKind,
    opts: IndexStoreOptions = {},
  ) {
    this.checkIntervalMs = opts.checkIntervalMs ?? 1000;
    this.cache = new LRUCache({ max: opts.cacheSize ?? 256 });
    this.now = opts.now ?? Date.now;
  }

  /** The current index, after the version check when it is due. */
  async get(): Promise<CatalogIndex> {
    if (this.forced || !this.index || this.now() - this.lastCheck >= this.checkIntervalMs) {
      // Loop: a local write made while a refresh was in flight (it may have read the old version) forces another.
      do {
        this.pending ??= this.refresh().finally(() => (this.pending = null));
        await this.pending;
      } while (this.forced || !this.index);
    }
    return this.index;
  }

  /**
   * A cached answer for `key`, or `compute(index)` stored under it. Keys must describe the whole question
   * (e.g. the normalised list body).
   */
  async read<T>(key: string, compute: (index: CatalogIndex) => T | Promise<T>): Promise<T> {
    const index = await this.get();
    const hit = this.cache.get(key);
    if (hit && hit.generation === this.generation) return hit.value as T;
    const generation = this.generation;
    const value = await compute(index);
    if (generation === this.generation) this.cache.set(key, { generation, value });
    return value;
  }

  /** After a structural write through this instance: the next read reloads. */
  invalidate(): void {
    this.forced = true;
    this.known = { ...this.known, version: -1 };
  }

  /**
   * After this instance incremented a download count: applied in place when the counts version is the next one
   * (no other writer in between), else the next read refreshes all counts.
   */
  applyDownloadCount(id: number, downloadCount: number, countsVersion: number): void {
    if (this.index && !this.pending && countsVersion === this.known.countsVersion + 1) {
      this.index.setDownloadCount(id, downloadCount);
      this.known = { ...this.known, countsVersion };
    } else {
      this.forced = true;
    }
    this.changed();
  }

  private changed(): void {
    this.generation++;
    this.cache.clear();
  }

  private async refresh(): Promise<void> {
    const checkedAt = this.now();
    this.forced = false;
    const v = await this.source.readVersion(this.kind);
    if (!this.index || v.version !== this.known.version) {
      const items = await this.source.loadIndexItems(this.kind);
      this.index = new CatalogIndex(items);
      this.changed();
    } else if (v.countsVersion !== this.known.countsVersion) {
      this.index.setAllDownloadCounts(await this.source.loadDownloadCounts(this.kind));
      this.changed();
    }
    this.known = v;
    this.lastCheck = checkedAt;
  }
}
