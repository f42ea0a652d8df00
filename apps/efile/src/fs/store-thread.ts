/**
 * efile's store thread (a worker_threads thread, bundled alone as `apps/efile/dist/efile-store-thread.js`): stores
 * groups of small files with synchronous calls, off the event loop (small-store.ts says why). One message in, one
 * out, matched by `id`.
 */
import { parentPort } from 'node:worker_threads';
import { storeGroup, type SmallGroup } from './small-store';

const port = parentPort;
if (!port) throw new Error('store-thread runs as a worker thread');
port.on('message', (m: { id: number; group: SmallGroup }) => {
  storeGroup(m.group).then(
    (out) => port.postMessage({ id: m.id, out }),
    (e: unknown) => port.postMessage({ id: m.id, error: (e as Error).message }),
  );
});
