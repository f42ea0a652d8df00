import type { IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';
import { BLOCK, BlockWriter, takeBlock } from '../fs/block-pool';

/**
 * Copies a worker's answer (a download or a zip) to the client the way single mode writes files: gathered into the
 * pooled 1 MiB blocks of `BlockWriter`, two writes in flight. Piped as it comes, every 64 KiB piece of the Unix
 * socket became a write on the client's socket with its own stream bookkeeping; the bench (`unix-bench.ts`) showed
 * the front end then spending several times the worker's CPU on the relay.
 */
export async function relay(res: IncomingMessage, out: Writable): Promise<void> {
  const w = new BlockWriter(out);
  let block = takeBlock();
  let used = 0;
  for await (const piece of res as AsyncIterable<Buffer>) {
    if (w.gone) {
      res.destroy();
      return;
    }
    let at = 0;
    while (at < piece.length) {
      const n = piece.copy(block, used, at);
      used += n;
      at += n;
      if (used === BLOCK) {
        await w.send(block, used);
        block = takeBlock();
        used = 0;
      }
    }
  }
  if (used > 0) await w.send(block, used);
  await w.end();
}
