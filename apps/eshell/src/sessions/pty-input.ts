import fs from 'node:fs';

/** Input waiting for the shell beyond which the page's socket stops being read (its TCP window then fills). */
export const INPUT_HIGH_WATER = 1 << 20;
/** How long a write that found the pty full waits before it tries again. */
const RETRY_MS = 2;
/** Written in one turn of the event loop at most; the rest after other work has had its turn. */
const PER_TURN = 256 * 1024;

/**
 * What the page types or pastes, on its way into the pty's master. Never through node-pty's `write`: it writes with
 * libuv's tty stream, which for a pty master falls back to blocking writes on a descriptor that is non-blocking, and
 * spins in the event loop while the master is full (a paste larger than the pty's buffer into a program that does
 * not read, or into ssh while its channel is full): every request of the process then waits, every user's
 * (2026-12-01, from outside: the portal answered nothing for ten minutes after one user's paste; node-pty's own fix,
 * microsoft/node-pty#831, is not in the package we use).
 *
 * Here a write is one non-blocking `write(2)` on the main thread: it takes what fits and returns at once; a full pty
 * is tried again a little later, bytes in order. Synchronous on purpose: node-pty closes the master on the main
 * thread, so the check that the pty is open and the write cannot be split by that close and a new descriptor under
 * the same number (another user's shell) as a write queued in the thread pool could.
 */
export class PtyInput {
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private timer: NodeJS.Timeout | null = null;
  private scheduled = false;
  private full = false;
  private closed = false;

  /**
   * `fd`: the pty's master; `open()`: whether node-pty still holds it (false from the moment it starts closing);
   * `drained()`: called once the queue is back under half the high-water mark after `write` said it was full.
   */
  constructor(
    private readonly fd: number,
    private readonly open: () => boolean,
    private readonly drained: () => void,
  ) {}

  /** Queues `d` for the shell; false when the caller should stop reading its source until `drained`. */
  write(d: Buffer): boolean {
    if (this.closed || d.length === 0) return !this.closed;
    this.queue.push(d);
    this.queued += d.length;
    if (!this.timer && !this.scheduled) this.flush();
    if (this.queued > INPUT_HIGH_WATER) this.full = true;
    return !this.full;
  }

  /** Bytes not yet taken by the pty. */
  get pending(): number {
    return this.queued;
  }

  /** The shell ended: what is still queued is dropped, and nothing is written any more. */
  close() {
    this.closed = true;
    this.queue.length = 0;
    this.queued = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flush() {
    this.timer = null;
    this.scheduled = false;
    let budget = PER_TURN;
    while (this.queue.length > 0 && budget > 0) {
      if (this.closed || !this.open()) return this.close();
      const head = this.queue[0]!;
      let n: number;
      try {
        n = fs.writeSync(this.fd, head, 0, Math.min(head.length, budget));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.timer = setTimeout(() => this.flush(), RETRY_MS);
          return;
        }
        // EIO and the like: the other side of the pty is gone; its exit ends the session.
        return this.close();
      }
      budget -= n;
      this.queued -= n;
      if (n === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(n);
    }
    if (this.full && this.queued <= INPUT_HIGH_WATER / 2) {
      this.full = false;
      this.drained();
    }
    if (this.queue.length > 0) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }
}
