/**
 * The bounded scroll-back of a session (issue 26 §2): the last `max` characters of output, replayed when the page
 * attaches again. Chunks are kept as they came; the oldest are dropped (the first kept one cut) past the bound.
 */
export class Scrollback {
  private chunks: string[] = [];
  private size = 0;

  constructor(private readonly max: number) {}

  push(d: string): void {
    if (d.length >= this.max) {
      this.chunks = [d.slice(d.length - this.max)];
      this.size = this.max;
      return;
    }
    this.chunks.push(d);
    this.size += d.length;
    while (this.size > this.max) {
      const first = this.chunks[0]!;
      const over = this.size - this.max;
      if (first.length <= over) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.slice(over);
        this.size -= over;
      }
    }
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }

  get length(): number {
    return this.size;
  }
}
