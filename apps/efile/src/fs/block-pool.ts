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
