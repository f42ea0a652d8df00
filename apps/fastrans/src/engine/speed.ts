/**
 * Speed and ETA of a task from its byte counter, smoothed like the browser uploader (spec §9: smoothing 0.1, a
 * sample every 500 ms). No clock of its own: the caller passes `now`.
 */
export class SpeedMeter {
  private lastAt: number | null = null;
  private lastBytes = 0;
  /** Bytes per second, smoothed. */
  speed = 0;

  constructor(
    private readonly smoothing = 0.1,
    private readonly minIntervalMs = 500,
  ) {}

  sample(bytesDone: number, now: number): number {
    if (this.lastAt === null) {
      this.lastAt = now;
      this.lastBytes = bytesDone;
      return this.speed;
    }
    const dt = now - this.lastAt;
    if (dt < this.minIntervalMs) return this.speed;
    // A restart may count bytes down (ranges to send again): never a negative speed.
    const instant = Math.max(0, ((bytesDone - this.lastBytes) * 1000) / dt);
    this.speed = this.speed === 0 ? instant : this.smoothing * instant + (1 - this.smoothing) * this.speed;
    this.lastAt = now;
    this.lastBytes = bytesDone;
    return this.speed;
  }

  /** Seconds left at the current speed; null when unknown (no speed yet). */
  eta(bytesDone: number, bytesTotal: number): number | null {
    if (this.speed <= 0) return bytesDone >= bytesTotal ? 0 : null;
    return Math.max(0, Math.ceil((bytesTotal - bytesDone) / this.speed));
  }

  reset(): void {
    this.lastAt = null;
    this.speed = 0;
  }
}
