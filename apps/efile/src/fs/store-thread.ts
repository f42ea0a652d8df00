/**
 * efile's store thread (a worker_threads thread, bundled alone as `apps/efile/dist/efile-store-thread.js`): stores
 * and reads groups of small files with synchronous calls, off the event loop (small-store.ts says why). One message
 * in, one out, matched by `id`.
 */
import { parentPort } from 'node:worker_threads';
import {
  readGroup,
  statGroup,
  storeGroup,
  unpackGroup,
  type SmallGroupWire,
  type SmallRead,
} from './small-store';

const port = parentPort;
if (!port) throw new Error('store-thread runs as a worker thread');
port.on('message', (m: { id: number; group?: SmallGroupWire; reads?: SmallRead[]; stats?: string[] }) => {
  if (m.stats) {
    port.postMessage({ id: m.id, out: statGroup(m.stats) });
    return;
  }
  if (m.reads) {
    try {
      const out = readGroup(m.reads);
      // The bytes move to efile's thread, not copied.
      const moving = out.flatMap((o) => ('data' in o ? [o.data.buffer as ArrayBuffer] : []));
      port.postMessage({ id: m.id, out }, moving);
    } catch (e) {
      port.postMessage({ id: m.id, error: (e as Error).message });
    }
    return;
  }
  storeGroup(unpackGroup(m.group!)).then(
    (out) => port.postMessage({ id: m.id, out }),
    (e: unknown) => port.postMessage({ id: m.id, error: (e as Error).message }),
  );
});
