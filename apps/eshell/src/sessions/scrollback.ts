/**
 * The bounded scroll-back of a session (issue 26 §2): the last `max` bytes of output, replayed when the page attaches
 * again. Chunks are kept as they came; the oldest are dropped (the first kept one cut) past the bound. A cut may fall
 * inside a UTF-8 character or an escape sequence: the terminal shows one replacement character at worst.
 */
export class Scrollback {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly max: number) {}

  push(d: Buffer): void {
    if (d.length >= this.max) {
      this.chunks = [Buffer.from(d.subarray(d.length - this.max))];
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
        this.chunks[0] = first.subarray(over);
        this.size -= over;
      }
    }
  }

  bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  get length(): number {
    return this.size;
  }
}
