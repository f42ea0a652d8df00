import crypto from 'node:crypto';
import { CommonCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { ClusterKitText } from '../messages';

/**
 * Objects a worker keeps between requests of one front-end operation (an open upload partial, a zip laid out before
 * it is streamed), by a random id; closed after `ttlMs` without use (the front end forgot them, or died).
 */
export class HandleStore<H extends { close(): Promise<void> }> {
  private readonly items = new Map<string, { h: H; at: number }>();

  constructor(private readonly ttlMs = 120_000) {
    const sweep = setInterval(() => {
      const cutoff = Date.now() - this.ttlMs;
      for (const [id, e] of this.items) if (e.at < cutoff) void e.h.close().then(() => this.items.delete(id));
    }, 30_000);
    sweep.unref();
  }

  add(h: H): string {
    const id = crypto.randomBytes(12).toString('hex');
    this.items.set(id, { h, at: Date.now() });
    return id;
  }

  /** The handle, its idle time restarted; "1001" when it is gone (the worker restarted, or it expired). */
  take(id: string): H {
    const e = this.items.get(id);
    if (!e) throw new AppError(CommonCodes.unavailable, ClusterKitText.handleGone);
    e.at = Date.now();
    return e.h;
  }

  /** The handle, forgotten here (its user closes it). */
  remove(id: string): H {
    const h = this.take(id);
    this.items.delete(id);
    return h;
  }

  /** Closes and forgets a handle, if it is still there. */
  async close(id: string): Promise<void> {
    await this.items.get(id)?.h.close();
    this.items.delete(id);
  }
}
