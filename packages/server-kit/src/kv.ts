import { Redis } from 'ioredis';
import { AppError } from './app-error';
import { ServerKitText } from './messages';
import { CommonCodes } from '@hpc/contracts';

/**
 * Shared short-lived state (DESIGN.md §2): rate-limit counters, locks, download keys, the one-operation-per-user
 * rule. In memory for the all-in-one process; Redis when several instances must agree.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  /** Sets a value with a time-to-live in milliseconds. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets only if absent; true when this call set it (a lock). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Increments a counter, starting its time-to-live on first use; returns the new value. */
  incr(key: string, ttlMs: number): Promise<number>;
  /**
   * In one atomic step: increments `key` as `incr` does, and sets `gate` (a lock) if it is absent, for as long as
   * `gateTtl` says for the new count: `baseMs` while the count is at most `upTo`, then doubling with each count over
   * it, up to `maxMs`. Returns the new count and whether this call set the gate. The failed-attempt throttle
   * (`throttle.ts`) needs all of it at once: the first attempt of a burst arms the gate before any later attempt of
   * the burst can see the count, and the gate's lifetime comes from the count it was armed at, not from an earlier
   * read that concurrent attempts have made stale.
   */
  incrAndGate(
    key: string,
    ttlMs: number,
    gate: string,
    gateTtl: GateTtl,
  ): Promise<{ n: number; gate: boolean }>;
  /** Decrements an existing counter (a refunded attempt); a missing or expired key stays missing. */
  decr(key: string): Promise<void>;
  del(key: string): Promise<void>;
  /** Deletes only while the key still holds `value` (a lock released by its owner alone); true when deleted. */
  delIfEquals(key: string, value: string): Promise<boolean>;
  /** Restarts the time-to-live only while the key still holds `value` (a lock renewed by its owner); true if so. */
  renewIfEquals(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The values of several keys in one round trip (null for each missing one), in the order asked. */
  getMany(keys: string[]): Promise<(string | null)[]>;
  /**
   * Sets one field of a map (a Redis hash) and gives the whole map `ttlMs` to live from now: a small per-user record
   * that entries join concurrently without a read-modify-write.
   */
  mapSet(key: string, field: string, value: string, ttlMs: number): Promise<void>;
  /** Every field of a map (empty when it is missing). */
  mapGetAll(key: string): Promise<Record<string, string>>;
  mapDelete(key: string, field: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a gate set by `incrAndGate` stays: see there. */
export interface GateTtl {
  upTo: number;
  baseMs: number;
  maxMs: number;
}

/** The gate's lifetime for count `n` (the same arithmetic as the Lua script below). */
export const gateTtlAt = (t: GateTtl, n: number): number =>
  n <= t.upTo ? t.baseMs : Math.min(t.baseMs * 2 ** Math.min(n - t.upTo - 1, 30), t.maxMs);

interface Entry {
  value: string;
  expires: number;
}

export class MemoryKv implements KvStore {
  private readonly map = new Map<string, Entry>();
  private readonly maps = new Map<string, { fields: Map<string, string>; expires: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    // Sweep expired keys now and then so a long-running process does not keep dead counters.
    this.timer = setInterval(() => this.sweep(), 60_000);
    this.timer.unref();
  }

  private live(key: string): Entry | undefined {
    const e = this.map.get(key);
    if (e && e.expires <= Date.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [k, e] of this.map) if (e.expires <= now) this.map.delete(k);
    for (const [k, m] of this.maps) if (m.expires <= now) this.maps.delete(k);
  }

  private liveMap(key: string) {
    const m = this.maps.get(key);
    if (m && m.expires <= Date.now()) {
      this.maps.delete(key);
      return undefined;
    }
    return m;
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }
  async set(key: string, value: string, ttlMs: number) {
    this.map.set(key, { value, expires: Date.now() + ttlMs });
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.live(key)) return false;
    this.map.set(key, { value, expires: Date.now() + ttlMs });
    return true;
  }
  private incrNow(key: string, ttlMs: number): number {
    const e = this.live(key);
    const next = e ? Number(e.value) + 1 : 1;
    this.map.set(key, { value: String(next), expires: e?.expires ?? Date.now() + ttlMs });
    return next;
  }
  async incr(key: string, ttlMs: number) {
    return this.incrNow(key, ttlMs);
  }
  async incrAndGate(key: string, ttlMs: number, gate: string, gateTtl: GateTtl) {
    // Synchronous from here to the return (no await): nothing else runs in between, so the steps are one.
    const n = this.incrNow(key, ttlMs);
    const set = !this.live(gate);
    if (set) this.map.set(gate, { value: '1', expires: Date.now() + gateTtlAt(gateTtl, n) });
    return { n, gate: set };
  }
  async decr(key: string) {
    const e = this.live(key);
    if (e) e.value = String(Number(e.value) - 1);
  }
  async del(key: string) {
    this.map.delete(key);
  }
  async delIfEquals(key: string, value: string) {
    if (this.live(key)?.value !== value) return false;
    this.map.delete(key);
    return true;
  }
  async renewIfEquals(key: string, value: string, ttlMs: number) {
    if (this.live(key)?.value !== value) return false;
    this.map.set(key, { value, expires: Date.now() + ttlMs });
    return true;
  }
  async getMany(keys: string[]) {
    return keys.map((k) => this.live(k)?.value ?? null);
  }
  async mapSet(key: string, field: string, value: string, ttlMs: number) {
    const m = this.liveMap(key) ?? { fields: new Map<string, string>(), expires: 0 };
    m.fields.set(field, value);
    m.expires = Date.now() + ttlMs;
    this.maps.set(key, m);
  }
  async mapGetAll(key: string) {
    return Object.fromEntries(this.liveMap(key)?.fields ?? []);
  }
  async mapDelete(key: string, field: string) {
    this.liveMap(key)?.fields.delete(field);
  }
  async close() {
    clearInterval(this.timer);
  }
}

/** Compare-and-delete and compare-and-renew in one step each, so a lock whose time ran out is never freed by a late owner. */
const DEL_IF_EQUALS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const RENEW_IF_EQUALS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/** `incrAndGate` in one step; the gate's lifetime is `gateTtlAt` of the new count. */
const INCR_AND_GATE = `
local n = redis.call('incr', KEYS[1])
redis.call('pexpire', KEYS[1], ARGV[1], 'NX')
local over = n - tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])
if over > 0 then ttl = math.min(ttl * 2 ^ math.min(over - 1, 30), tonumber(ARGV[4])) end
local set = redis.call('set', KEYS[2], '1', 'PX', math.floor(ttl), 'NX')
if set then return {n, 1} end
return {n, 0}`;

export class RedisKv implements KvStore {
  private readonly redis: Redis;
  constructor(
    url: string,
    private readonly prefix = 'hpc:',
  ) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
    // Without a listener ioredis prints every failed reconnect; the failing requests already say what is wrong.
    this.redis.on('error', () => undefined);
  }
  /**
   * Runs one Redis call; while Redis is unreachable the request fails with 1001 ("service unavailable, try again
   * later", HTTP 503) instead of an anonymous 500, and works again as soon as ioredis reconnects.
   */
  private async call<T>(fn: (r: Redis) => Promise<T>): Promise<T> {
    try {
      return await fn(this.redis);
    } catch (e) {
      throw new AppError(CommonCodes.unavailable, ServerKitText.redisUnavailable, {
        data: { cause: e instanceof Error ? e.message : String(e) },
      });
    }
  }
  async get(key: string) {
    return this.call((r) => r.get(this.prefix + key));
  }
  async set(key: string, value: string, ttlMs: number) {
    await this.call((r) => r.set(this.prefix + key, value, 'PX', ttlMs));
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    return (await this.call((r) => r.set(this.prefix + key, value, 'PX', ttlMs, 'NX'))) === 'OK';
  }
  async incr(key: string, ttlMs: number) {
    const k = this.prefix + key;
    // One round trip: INCR then set the expiry only when the key is new.
    const [[, n]] = (await this.call((r) => r.multi().incr(k).pexpire(k, ttlMs, 'NX').exec())) as [
      [null, number],
    ];
    return n;
  }
  async incrAndGate(key: string, ttlMs: number, gate: string, gateTtl: GateTtl) {
    // One Lua script: the count, its expiry, the gate's lifetime from the new count and the gate itself, with no
    // other client's command in between.
    const [n, set] = (await this.call((r) =>
      r.eval(
        INCR_AND_GATE,
        2,
        this.prefix + key,
        this.prefix + gate,
        ttlMs,
        gateTtl.upTo,
        gateTtl.baseMs,
        gateTtl.maxMs,
      ),
    )) as [number, number];
    return { n, gate: set === 1 };
  }
  async decr(key: string) {
    // DECR on a missing key would create it at -1 without an expiry: only decrement what exists.
    await this.call((r) =>
      r.eval(
        "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0",
        1,
        this.prefix + key,
      ),
    );
  }
  async del(key: string) {
    await this.call((r) => r.del(this.prefix + key));
  }
  async delIfEquals(key: string, value: string) {
    return (await this.call((r) => r.eval(DEL_IF_EQUALS, 1, this.prefix + key, value))) === 1;
  }
  async renewIfEquals(key: string, value: string, ttlMs: number) {
    return (await this.call((r) => r.eval(RENEW_IF_EQUALS, 1, this.prefix + key, value, ttlMs))) === 1;
  }
  async getMany(keys: string[]) {
    if (keys.length === 0) return [];
    return this.call((r) => r.mget(keys.map((k) => this.prefix + k)));
  }
  async mapSet(key: string, field: string, value: string, ttlMs: number) {
    const k = this.prefix + key;
    await this.call((r) => r.multi().hset(k, field, value).pexpire(k, ttlMs).exec());
  }
  async mapGetAll(key: string) {
    return this.call((r) => r.hgetall(this.prefix + key));
  }
  async mapDelete(key: string, field: string) {
    await this.call((r) => r.hdel(this.prefix + key, field));
  }
  async close() {
    this.redis.disconnect();
  }
}

export const createKv = (redisUrl?: string, prefix?: string): KvStore =>
  redisUrl ? new RedisKv(redisUrl, prefix) : new MemoryKv();
