import type { Writable } from 'node:stream';

/** 1 MiB: the unit in which downloads and zips read files and write to the socket. */
export const BLOCK = 1024 * 1024;

/**
 * Free 1 MiB buffers shared by every download and zip of the process. A buffer goes back once the socket's write
 * callback says the kernel has its bytes; at most POOL_MAX are kept, more are allocated and left to the GC.
 * Reusing them keeps a busy server's memory flat: a fresh 1 MiB block per read is garbage that V8 only collects
 * lazily (the zip of 10,000 files grew the RSS by ~60 MB that way) and, on this VM, made downloads bimodal.
 */
const pool: Buffer[] = [];
const POOL_MAX = 16;

export const takeBlock = (): Buffer => pool.pop() ?? Buffer.allocUnsafeSlow(BLOCK);

const giveBack = (b: Buffer): void => {
  if (pool.length < POOL_MAX) pool.push(b);
};

/**
 * Large buffers kept for their next use: at most `max`, and all of them dropped after `idleMs` without one given
 * back (memory a server that idles should not hold). Fresh ones are faulted in page by page as they are first
 * written, and, as Buffers, are memory V8 reclaims only with full collections. The range buffers below and the
 * shared memory of whole batches (tar-extract.ts) are kept this way.
 */
export class Kept<T> {
  private readonly free: T[] = [];
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly max: number,
    private readonly idleMs = 30_000,
  ) {}

  take(): T | undefined {
    return this.free.pop();
  }

  give(x: T): void {
    if (this.free.length < this.max) this.free.push(x);
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => (this.free.length = 0), this.idleMs);
    this.idle.unref();
  }
}

/** The usual range of the fast-transfer client (16 MiB): ranges up to this size read into kept buffers. */
const RANGE_KEPT = 16 * 1024 * 1024;
/** Eight: the client's streams of a task; 128 MiB at most. */
const ranges = new Kept<Buffer>(8);

/**
 * A buffer for one range of a fast-transfer download (read whole to hash it before it is sent): `n` bytes, a view of
 * a kept 16 MiB buffer when `n` fits. A fresh 16 MiB buffer per range was memory V8 reclaims only with full
 * collections, triggered as it sees external memory grow: efile's concurrent marking threads were a tenth of a
 * 1 GiB download's CPU samples. Back with `giveRangeBuffer` once the socket is done with it.
 */
export function takeRangeBuffer(n: number): Buffer {
  if (n > RANGE_KEPT) return Buffer.allocUnsafeSlow(n);
  return (ranges.take() ?? Buffer.allocUnsafeSlow(RANGE_KEPT)).subarray(0, n);
}

/**
 * The bytes of digest ranges held in memory at once, per user and for the process: a range is read whole and held
 * until its answer is read, so a client that asks and never reads held 64 MiB per request (40 paused connections of
 * one user: 1.4 GB; found from outside, 2026-12-01). The client's own streams of a task hold 128 MiB at most.
 */
export class RangeBudget {
  private readonly perUser = new Map<string, number>();
  private total = 0;

  constructor(
    readonly userMax = 256 * 1024 * 1024,
    readonly processMax = 1024 * 1024 * 1024,
  ) {}

  /** Takes `n` bytes for `user`: false when that would pass either budget (nothing taken). */
  take(user: string, n: number): boolean {
    const mine = this.perUser.get(user) ?? 0;
    if (mine + n > this.userMax || this.total + n > this.processMax) return false;
    this.perUser.set(user, mine + n);
    this.total += n;
    return true;
  }

  give(user: string, n: number): void {
    const left = (this.perUser.get(user) ?? 0) - n;
    if (left > 0) this.perUser.set(user, left);
    else this.perUser.delete(user);
    this.total = Math.max(0, this.total - n);
  }
}

export function giveRangeBuffer(b: Buffer): void {
  if (b.buffer.byteLength === RANGE_KEPT) ranges.give(Buffer.from(b.buffer, 0, RANGE_KEPT));
}

/**
 * Writes pooled blocks to a response (single-file downloads and zips): at most `inFlight` writes not yet taken by
 * the kernel, each block back to the pool when its write callback fires. When the client goes away, writing stops
 * quietly: `gone` turns true and `closed` resolves, which callers race their own waits against.
 */
export class BlockWriter {
  private readonly writes: Promise<void>[] = [];
  private closedSeen = false;
  readonly closed: Promise<void>;

  constructor(
    private readonly out: Writable,
    private readonly inFlight = 2,
  ) {
    this.closed = new Promise<void>((resolve) =>
      out.once('close', () => {
        this.closedSeen = true;
        resolve();
      }),
    );
  }

  /** 'close' comes a tick after destroy(); writing in between would emit an error nobody listens to. */
  get gone(): boolean {
    return this.closedSeen || this.out.destroyed;
  }

  /** Sends `block[0, used)` (taken from the pool), then waits while too many writes are in flight. */
  async send(block: Buffer, used: number): Promise<void> {
    if (this.gone) return giveBack(block);
    this.writes.push(
      new Promise<void>((resolve) =>
        this.out.write(block.subarray(0, used), (err) => {
          if (!err) giveBack(block);
          resolve();
        }),
      ),
    );
    if (this.writes.length >= this.inFlight) await Promise.race([this.writes.shift(), this.closed]);
  }

  /** Waits for the writes in flight, then ends the response (unless the client left). */
  async end(): Promise<void> {
    await Promise.race([Promise.all(this.writes), this.closed]);
    if (!this.gone) this.out.end();
  }
}
