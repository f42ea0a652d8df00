/*
 * In-memory search index of one catalogue (images, models or apps).
 *
 * Why: the catalogue is read-mostly and every list call combines a substring keyword over four texts (Chinese and
 * English name and description), label intersections and a sort. A `LIKE '%kw%'` scan per request costs tens of
 * milliseconds at 100,000 items and cannot use an index on either database, so one portal instance keeps:
 * - the lower-cased (NFKC) search texts of all items in ONE string with an offsets array: a single `indexOf` pass
 *   over it is much faster than 100,000 `includes` calls, and a candidate set that filters already narrowed is
 *   checked through O(1) V8 slices of it;
 * - postings (sorted slot arrays) per label, category and accelerator type, intersected smallest first, and the
 *   match lists of recent keyword terms (paging through a search or changing its filters reuses the scan);
 * - one pre-sorted slot order per sort with its inverse (rank), so a page is either a walk of the order or a sort
 *   of the few matches by rank, never a comparator sort of everything;
 * - download counts, updated in place (a count only grows, so the item just moves forward in the downloads order).
 * Only ids, counts and the search text stay here (~40 MB for 100,000 items); the cards of one page come from the
 * database and whole answers are kept in a small LRU (see catalog-index-store.ts), invalidated by the catalogue
 * version that every write bumps and that each instance re-reads at most once a second, because several portal
 * instances may share one PostgreSQL database.
 */
import type { CatalogSort } from '@hpc/contracts';
import { LRUCache } from 'lru-cache';

/** What the index needs of one item (the repository loads these for a whole catalogue). */
export interface IndexItem {
  id: number;
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  /** Extra searchable text, such as an image's `repo:tag`. */
  extraText?: string;
  category: string;
  acceleratorType: string | null;
  createdAt: number;
  downloadCount: number;
  labels: readonly string[];
}

export interface IndexQuery {
  keyword?: string;
  labels?: readonly string[];
  category?: string;
  acceleratorType?: string;
  sort: CatalogSort;
  pageNum: number;
  pageSize: number;
}

export interface IndexResult {
  total: number;
  /** Item ids of the requested page, in order. */
  ids: number[];
}

type SortOrders = Record<CatalogSort, { order: Int32Array; rank: Int32Array }>;

const EMPTY = new Int32Array(0);
/** Recent keyword terms whose full match lists are kept (at most 100,000 ints each). */
const TERM_CACHE_SIZE = 32;

/** The normal form of both the indexed texts and the keyword: full-width letters and case do not matter. */
export const normalizeText = (s: string): string => s.normalize('NFKC').toLowerCase();

/** Keyword → search terms; every term must occur. Control characters (our separators) are dropped. */
export function keywordTerms(keyword: string | undefined): string[] {
  if (!keyword) return [];
  // eslint-disable-next-line no-control-regex
  return normalizeText(keyword.replace(/[\u0000-\u001f]/g, ' '))
    .split(/\s+/)
    .filter(Boolean);
}

/** Intersection of ascending slot arrays. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[k++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, k);
}

function postingsOf(groups: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...groups].map(([k, v]) => [k, Int32Array.from(v)]));
}

export class CatalogIndex {
  readonly size: number;
  private readonly ids: Int32Array;
  private readonly slotOfId = new Map<number, number>();
  private readonly text: string;
  private readonly starts: Int32Array;
  private readonly created: Float64Array;
  private readonly downloads: Float64Array;
  private readonly byLabel: Map<string, Int32Array>;
  private readonly byCategory: Map<string, Int32Array>;
  private readonly byAccelerator: Map<string, Int32Array>;
  private readonly categoryOf: string[];
  private readonly acceleratorOf: (string | null)[];
  private readonly orders: SortOrders;
  private readonly termCache = new LRUCache<string, Int32Array>({ max: TERM_CACHE_SIZE });

  constructor(input: readonly IndexItem[]) {
    // Slots follow ascending id, so every posting built in one pass is already sorted.
    const items = [...input].sort((a, b) => a.id - b.id);
    const n = items.length;
    this.size = n;
    this.ids = Int32Array.from(items, (it) => it.id);
    this.created = Float64Array.from(items, (it) => it.createdAt);
    this.downloads = Float64Array.from(items, (it) => it.downloadCount);
    this.categoryOf = items.map((it) => it.category);
    this.acceleratorOf = items.map((it) => it.acceleratorType);
    this.starts = new Int32Array(n + 1);
    const texts: string[] = [];
    const labels = new Map<string, number[]>();
    const categories = new Map<string, number[]>();
    const accelerators = new Map<string, number[]>();
    const push = (m: Map<string, number[]>, key: string, slot: number) => {
      const list = m.get(key);
      if (list) list.push(slot);
      else m.set(key, [slot]);
    };
    let offset = 0;
    items.forEach((it, slot) => {
      this.slotOfId.set(it.id, slot);
      // Fields are joined by '\n' and items by '\0'; terms never contain either, so no match spans two items.
      const t = normalizeText(
        [it.name, it.nameEn, it.extraText ?? '', it.description, it.descriptionEn].join('\n'),
      );
      texts.push(t);
      this.starts[slot] = offset;
      offset += t.length + 1;
      for (const l of new Set(it.labels)) push(labels, l, slot);
      push(categories, it.category, slot);
      if (it.acceleratorType) push(accelerators, it.acceleratorType, slot);
    });
    this.starts[n] = offset;
    this.text = texts.join('\0');
    this.byLabel = postingsOf(labels);
    this.byCategory = postingsOf(categories);
    this.byAccelerator = postingsOf(accelerators);
    const nameKeys = items.map((it) => normalizeText(it.nameEn || it.name));
    const slots = () => Int32Array.from({ length: n }, (_, i) => i);
    const withRank = (order: Int32Array) => {
      const rank = new Int32Array(n);
      order.forEach((slot, pos) => (rank[slot] = pos));
      return { order, rank };
    };
    this.orders = {
      newest: withRank(slots().sort((a, b) => this.created[b]! - this.created[a]! || b - a)),
      downloads: withRank(slots().sort((a, b) => this.compareDownloads(a, b))),
      name: withRank(
        slots().sort((a, b) => (nameKeys[a]! < nameKeys[b]! ? -1 : nameKeys[a]! > nameKeys[b]! ? 1 : a - b)),
      ),
    };
  }

  /** Most downloaded first, then newest, then highest id. */
  private compareDownloads(a: number, b: number): number {
    return this.downloads[b]! - this.downloads[a]! || this.created[b]! - this.created[a]! || b - a;
  }

  has(id: number): boolean {
    return this.slotOfId.has(id);
  }

  /** Matching slots in ascending order, or null for "all items". */
  private match(q: IndexQuery): Int32Array | null {
    const lists: Int32Array[] = [];
    for (const label of new Set(q.labels ?? [])) lists.push(this.byLabel.get(label) ?? EMPTY);
    if (q.category) lists.push(this.byCategory.get(q.category) ?? EMPTY);
    if (q.acceleratorType) lists.push(this.byAccelerator.get(q.acceleratorType) ?? EMPTY);
    lists.sort((a, b) => a.length - b.length);
    let slots: Int32Array | null = lists[0] ?? null;
    for (const list of lists.slice(1)) slots = intersect(slots!, list);
    for (const term of keywordTerms(q.keyword)) {
      // A narrow candidate set is checked item by item; otherwise the term's matches over the whole catalogue
      // (kept for recent terms: paging and changing filters reuse them) are intersected with it.
      if (slots && slots.length * 16 < this.size && !this.termCache.has(term))
        slots = this.filterSlots(slots, term);
      else slots = slots ? intersect(slots, this.termMatches(term)) : this.termMatches(term);
      if (slots.length === 0) break;
    }
    return slots;
  }

  /** Every slot whose text contains `term`, from a small LRU of recent terms. */
  private termMatches(term: string): Int32Array {
    let hit = this.termCache.get(term);
    if (!hit) {
      hit = this.scan(term);
      this.termCache.set(term, hit);
    }
    return hit;
  }

  private filterSlots(slots: Int32Array, term: string): Int32Array {
    const out = new Int32Array(slots.length);
    let k = 0;
    for (const s of slots) {
      if (this.text.slice(this.starts[s], this.starts[s + 1]! - 1).includes(term)) out[k++] = s;
    }
    return out.subarray(0, k);
  }

  private scan(term: string): Int32Array {
    const out: number[] = [];
    let pos = this.text.indexOf(term);
    while (pos !== -1) {
      const slot = this.slotAt(pos);
      out.push(slot);
      // Skip the rest of this item: one hit is enough.
      pos = this.text.indexOf(term, this.starts[slot + 1]);
    }
    return Int32Array.from(out);
  }

  /** The slot whose text contains offset `pos` (binary search in `starts`). */
  private slotAt(pos: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Total and the ids of one page, in the requested order. */
  query(q: IndexQuery): IndexResult {
    const matched = this.match(q);
    const { order, rank } = this.orders[q.sort];
    const start = (q.pageNum - 1) * q.pageSize;
    const end = start + q.pageSize;
    const toIds = (slots: ArrayLike<number>) => Array.from(slots, (s) => this.ids[s]!);
    if (matched === null) return { total: this.size, ids: toIds(order.subarray(start, end)) };
    if (start >= matched.length) return { total: matched.length, ids: [] };
    // Few matches: sort them by rank. Otherwise walk the pre-sorted order, which stops once the page is full.
    if (matched.length * 64 < this.size) {
      const sorted = Array.from(matched).sort((a, b) => rank[a]! - rank[b]!);
      return { total: matched.length, ids: toIds(sorted.slice(start, end)) };
    }
    const keep = new Uint8Array(this.size);
    for (const s of matched) keep[s] = 1;
    const page: number[] = [];
    let seen = 0;
    for (let i = 0; i < order.length && page.length < q.pageSize; i++) {
      const s = order[i]!;
      if (keep[s] && seen++ >= start) page.push(s);
    }
    return { total: matched.length, ids: toIds(page) };
  }

  /** Item counts per category, within one accelerator type when given. */
  categoryCounts(acceleratorType?: string): Map<string, number> {
    return this.countBy(this.categoryOf, acceleratorType);
  }

  acceleratorCounts(): Map<string, number> {
    return this.countBy(this.acceleratorOf);
  }

  private countBy(values: readonly (string | null)[], acceleratorType?: string): Map<string, number> {
    const counts = new Map<string, number>();
    const slots = acceleratorType ? (this.byAccelerator.get(acceleratorType) ?? EMPTY) : null;
    const add = (s: number) => {
      const v = values[s];
      if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
    };
    if (slots) for (const s of slots) add(s);
    else for (let s = 0; s < this.size; s++) add(s);
    return counts;
  }

  /** The labels carried by at least one item (of one accelerator type when given). */
  usedLabels(acceleratorType?: string): Set<string> {
    const within = acceleratorType ? (this.byAccelerator.get(acceleratorType) ?? EMPTY) : null;
    const used = new Set<string>();
    for (const [label, slots] of this.byLabel) {
      if (!within || intersect(slots, within).length > 0) used.add(label);
    }
    return used;
  }

  downloadCount(id: number): number | undefined {
    const slot = this.slotOfId.get(id);
    return slot === undefined ? undefined : this.downloads[slot];
  }

  /**
   * Sets an item's download count. A count that grew moves the item forward in the downloads order by a binary
   * search in the (still sorted) prefix and one shift, so a download click never re-sorts the catalogue.
   */
  setDownloadCount(id: number, count: number): void {
    const slot = this.slotOfId.get(id);
    if (slot === undefined || this.downloads[slot] === count) return;
    const grew = count > this.downloads[slot]!;
    this.downloads[slot] = count;
    const { order, rank } = this.orders.downloads;
    if (!grew) {
      order.sort((a, b) => this.compareDownloads(a, b));
      order.forEach((s, pos) => (rank[s] = pos));
      return;
    }
    const pos = rank[slot]!;
    let lo = 0;
    let hi = pos;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compareDownloads(order[mid]!, slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    order.copyWithin(lo + 1, lo, pos);
    order[lo] = slot;
    for (let i = lo; i <= pos; i++) rank[order[i]!] = i;
  }

  /** Replaces all download counts (another instance changed them) and re-sorts the downloads order once. */
  setAllDownloadCounts(counts: ReadonlyArray<{ id: number; downloadCount: number }>): void {
    for (const { id, downloadCount } of counts) {
      const slot = this.slotOfId.get(id);
      if (slot !== undefined) this.downloads[slot] = downloadCount;
    }
    const { order, rank } = this.orders.downloads;
    order.sort((a, b) => this.compareDownloads(a, b));
    order.forEach((s, pos) => (rank[s] = pos));
  }

  /** For tests: every sort's full id order. */
  orderOf(sort: CatalogSort): number[] {
    return Array.from(this.orders[sort].order, (s) => this.ids[s]!);
  }
}
