/** The worker entry of the kit's tests (bundled by user-workers.test.ts): the kit's roles with the test table. */
import { fileURLToPath } from 'node:url';
import { runWorkerEntry } from './worker-entry';

await runWorkerEntry({
  entry: fileURLToPath(import.meta.url),
  name: 'kit-test',
  runDirVariable: 'KIT_TEST_RUN_DIR',
  async start(id) {
    const { callServer } = await import('../wire/call-server');
    const { kitCalls, kitWorker } = await import('./kit-calls.test-fixture');
    return {
      handle: callServer(kitCalls, kitWorker, { user: id.user }).handle,
      // A handed-over client connection: the worker writes the answer itself (its uid, 10 digits).
      async serve(_job, head, socket) {
        socket.end(
          Buffer.concat([
            Buffer.from(head, 'latin1'),
            Buffer.from(String(process.getuid!()).padStart(10, '0')),
          ]),
        );
        await new Promise((r) => socket.once('close', r));
      },
    };
  },
});
