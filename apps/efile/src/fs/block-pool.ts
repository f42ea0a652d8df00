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

/** The usual range of the fast-transfer client (16 MiB): ranges up to this size read into kept buffers. */
const RANGE_KEPT = 16 * 1024 * 1024;
const RANGES_MAX = 8;
/** Kept range buffers go after this long without a range (128 MiB is a lot to hold for a server that idles). */
const RANGES_IDLE_MS = 30_000;
const ranges: Buffer[] = [];
let rangesIdle: NodeJS.Timeout | null = null;

/**
 * A buffer for one range of a fast-transfer download (read whole to hash it before it is sent): `n` bytes, a view of
 * a kept 16 MiB buffer when `n` fits. A fresh 16 MiB buffer per range was memory V8 reclaims only with full
 * collections, triggered as it sees external memory grow: efile's concurrent marking threads were a tenth of a
 * 1 GiB download's CPU samples. Back with `giveRangeBuffer` once the socket is done with it.
 */
export function takeRangeBuffer(n: number): Buffer {
  if (n > RANGE_KEPT) return Buffer.allocUnsafeSlow(n);
  return (ranges.pop() ?? Buffer.allocUnsafeSlow(RANGE_KEPT)).subarray(0, n);
}

export function giveRangeBuffer(b: Buffer): void {
  if (b.buffer.byteLength !== RANGE_KEPT || ranges.length >= RANGES_MAX) return;
  ranges.push(Buffer.from(b.buffer, 0, RANGE_KEPT));
  if (rangesIdle) clearTimeout(rangesIdle);
  rangesIdle = setTimeout(() => (ranges.length = 0), RANGES_IDLE_MS);
  rangesIdle.unref();
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
