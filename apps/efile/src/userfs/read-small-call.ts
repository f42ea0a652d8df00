import { CommonCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { call, readJson, type CustomCall } from '@hpc/cluster-kit';
import type { FsScope, SmallReadResult, UserFs } from './types';
import { framed, readFramed, sliceFramed } from './wire';
import { EfileText } from '../messages';

/** At most this many files in one request (the service asks for 32 at a time) and this much of each. */
const READ_SMALL_FILES = 64;
const READ_SMALL_MAX_BYTES = 1024 * 1024;

/** A file of the answer: its size and digest (its bytes follow the head, in order), or its error code. */
type Item = { size: number; sha256: string } | { code: string };

/**
 * The files of a download batch read by the user's worker in one request: the paths go as JSON, the answer is one
 * framed body (a head with each file's size and SHA-256 or error code, then the bytes). Asked one file at a time,
 * as `readFile` did, 10,000 files were 10,000 requests through both processes' HTTP; unix mode's download spent
 * ~320 µs more CPU a file than single mode's (PERFORMANCE.md, "Unix mode's download reads a batch in one request").
 */
export const readSmallCall: CustomCall<UserFs['readSmall'], UserFs> = call.custom({
  client: (ctx) => async (s, hosts, maxBytes) => {
    const { res, done } = await ctx.request(s, 'read', {
      json: { scope: ctx.wireScope(s), hosts, maxBytes },
    });
    try {
      const max = 4 + 1024 * 1024 + hosts.length * maxBytes;
      const malformed = EfileText.malformedSmallFilesAnswer;
      const { head, body, at: start } = await readFramed<Item[]>(res, max, malformed);
      const bad = () => new Error('a malformed answer of small files from the worker');
      if (!Array.isArray(head) || head.length !== hosts.length) throw bad();
      // The files read, each with its bytes, in the head's order; a refused file has no bytes in the body.
      const read = sliceFramed(
        body,
        start,
        head.filter((i): i is { size: number; sha256: string } => !('code' in i)),
        (i) => i.size,
      );
      if (!read) throw bad();
      let next = 0;
      return head.map((i): SmallReadResult => {
        if ('code' in i) return { code: String(i.code) };
        const { data, sha256 } = read[next++]!;
        return { data, sha256 };
      });
    } finally {
      done();
    }
  },
  server: (impl, ctx) => ({
    routes: {
      read: async (req, res) => {
        const a = await readJson<{ scope: FsScope; hosts: string[]; maxBytes: number }>(req);
        if (
          !Array.isArray(a.hosts) ||
          a.hosts.length > READ_SMALL_FILES ||
          !a.hosts.every((h) => typeof h === 'string') ||
          !Number.isSafeInteger(a.maxBytes) ||
          a.maxBytes < 0 ||
          a.maxBytes > READ_SMALL_MAX_BYTES
        )
          throw new AppError(CommonCodes.invalidInput, EfileText.malformedSmallFilesRequest);
        const out = await impl.readSmall(ctx.scopeOf(a.scope), a.hosts, a.maxBytes);
        const head: Item[] = out.map((r) => ('code' in r ? r : { size: r.data.length, sha256: r.sha256 }));
        const pieces = framed(
          head,
          out.flatMap((r) => ('data' in r ? [r.data] : [])),
        );
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': pieces.reduce((n, p) => n + p.length, 0),
        });
        for (const p of pieces) res.write(p);
        res.end();
      },
    },
  }),
});
