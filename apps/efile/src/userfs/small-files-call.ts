import { call, fromWire, toWire, type CustomCall, type WireError } from '@hpc/cluster-kit';
import type { FsScope, UserFs } from './types';
import { readSmallFiles, smallFilesBody } from './wire';

/** A request of small files holds at most this many files and bytes; this many go to a user at once. */
const SMALL_FILES_PER_REQUEST = 64;
const SMALL_BYTES_PER_REQUEST = 8 * 1024 * 1024;
const SMALL_REQUESTS_AT_ONCE = 2;

/** How many small files went to workers in how many requests (for tests and the bench). */
export const smallSent = { files: 0, requests: 0 };

/** A small file waiting to go to its user's worker with others. */
interface SmallJob {
  dir: string;
  name: string;
  data: Buffer[];
  size: number;
  sha256: string;
  ok: () => void;
  fail: (e: unknown) => void;
}
interface SmallQueue {
  scope: FsScope;
  overwrite: boolean;
  jobs: SmallJob[];
  sending: number;
}

/**
 * Small files travel to the worker together: the calls that arrive while a request of them is under way wait and
 * go as the next one (at most 64 files or 8 MiB, two requests at once per user). A batch's 64 files at once were
 * 64 requests, each a round trip through both processes' HTTP for ~10 KB; in the worker they are stored at once as
 * before (it holds the folder open across them). Each call gets its own answer (a refusal of one is not the
 * others'); a worker that dies fails the calls of its requests (1001), as a single one would.
 */
export const storeSmallCall: CustomCall<UserFs['storeSmall'], UserFs> = call.custom({
  client: (ctx) => {
    const queues = new Map<string, SmallQueue>();

    const send = async (q: SmallQueue, jobs: SmallJob[]) => {
      try {
        const head = {
          scope: ctx.wireScope(q.scope) as FsScope,
          overwrite: q.overwrite,
          files: jobs.map((j) => ({ dir: j.dir, name: j.name, sha256: j.sha256, size: j.size })),
        };
        const body = smallFilesBody(
          head,
          jobs.map((j) => j.data),
        );
        const results = await ctx.json<(WireError | null)[]>(q.scope, 'batch', {
          stream: (async function* () {
            yield* body;
          })(),
        });
        jobs.forEach((j, i) => {
          const e = results[i];
          if (e) j.fail(fromWire(e));
          else j.ok();
        });
      } catch (e) {
        for (const j of jobs) j.fail(e);
      }
    };

    const pump = (key: string, q: SmallQueue) => {
      while (q.sending < SMALL_REQUESTS_AT_ONCE && q.jobs.length > 0) {
        let bytes = 0;
        let n = 0;
        while (
          n < q.jobs.length &&
          n < SMALL_FILES_PER_REQUEST &&
          (n === 0 || bytes + q.jobs[n]!.size <= SMALL_BYTES_PER_REQUEST)
        )
          bytes += q.jobs[n++]!.size;
        const jobs = q.jobs.splice(0, n);
        smallSent.files += n;
        smallSent.requests++;
        q.sending++;
        void send(q, jobs).finally(() => {
          q.sending--;
          if (q.sending === 0 && q.jobs.length === 0) queues.delete(key);
          else pump(key, q);
        });
      }
    };

    return (s, dir, name, data, sha256, overwrite) =>
      new Promise<void>((ok, fail) => {
        const key = JSON.stringify([s.cun, s.roots, overwrite]);
        let q = queues.get(key);
        if (!q) {
          q = { scope: s, overwrite, jobs: [], sending: 0 };
          queues.set(key, q);
        }
        const size = data.reduce((a, d) => a + d.length, 0);
        q.jobs.push({ dir, name, data, size, sha256, ok, fail });
        pump(key, q);
      });
  },
  server: (impl, ctx) => ({
    routes: {
      batch: async (req, res) => {
        const b = await readSmallFiles(req);
        const scope = ctx.scopeOf(b.scope);
        const results = await Promise.all(
          b.files.map(async (f) => {
            try {
              await impl.storeSmall(scope, f.dir, f.name, [f.data], f.sha256, b.overwrite);
              return null;
            } catch (e) {
              return toWire(e);
            }
          }),
        );
        ctx.json(res, 200, { result: results });
      },
    },
  }),
});
