// lru-cache 5 ships no types (the version declared in package.json): the part of its API that efile uses.
declare module 'lru-cache' {
  namespace LRUCache {
    interface Options<K, V> {
      /** Most entries kept; the least recently used goes first. */
      max?: number;
      /** Milliseconds an entry lives from its set; a stale entry reads as missing (and is dropped) on get. */
      maxAge?: number;
      length?(value: V, key: K): number;
      dispose?(key: K, value: V): void;
    }
  }
  class LRUCache<K, V> {
    constructor(options?: LRUCache.Options<K, V>);
    get(key: K): V | undefined;
    /** `maxAge` overrides the cache's for this entry. */
    set(key: K, value: V, maxAge?: number): boolean;
    has(key: K): boolean;
    del(key: K): void;
    reset(): void;
    readonly length: number;
  }
  export = LRUCache;
}
