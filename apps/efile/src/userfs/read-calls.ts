import type { Writable } from 'node:stream';
import { FileCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { call, HandleStore, readJson, type CustomCall, type CustomServerContext } from '@hpc/cluster-kit';
import { relay } from './relay';
import type { FsScope, ReadHandle, UserFs, ZipHandle } from './types';
import { EfileText } from '../messages';

/**
 * A range of a file the front end has stat'ed, to be sent by the worker: on the client's own connection handed over
 * (its bytes never cross the front end), or relayed when it cannot be handed (TLS, an inject, EFILE_WORKER_HANDOFF
 * off). The worker checks it is still that file (same size and time): the head with its length is already written.
 */
interface ReadJob {
  scope: FsScope;
  host: string;
  start: number;
  end: number;
  size: number;
  mtimeMs: number;
}

async function sendRange(
  impl: UserFs,
  ctx: CustomServerContext,
  job: ReadJob,
  send: (h: ReadHandle) => Promise<void>,
): Promise<void> {
  const h = await impl.openRead(ctx.scopeOf(job.scope), job.host);
  try {
    if (h.size !== job.size || h.mtimeMs !== job.mtimeMs)
      throw new AppError(FileCodes.notFound, EfileText.changedSinceSized);
    await send(h);
  } finally {
    await h.close();
  }
}

/** The file is opened in the worker for its size only; each range opens it again there, where it is sent. */
export const openReadCall: CustomCall<UserFs['openRead'], UserFs> = call.custom({
  client: (ctx) => async (s, host) => {
    const scope = ctx.wireScope(s);
    const st = await ctx.json<{ size: number; mtimeMs: number }>(s, 'stat', { json: { scope, host } });
    return {
      ...st,
      pipeTo: async (out: Writable, start: number, end: number) => {
        const job = { scope, host, start, end, ...st };
        if ((await ctx.handOff(s, out, job)).handed) return;
        const { res, done } = await ctx.request(s, 'read', { json: job }).catch((e: unknown) => {
          out.destroy();
          throw e;
        });
        try {
          await relay(res, out);
        } catch {
          out.destroy();
        } finally {
          done();
        }
      },
      readAt: async (into: Buffer, position: number) => {
        const end = Math.min(st.size, position + into.length) - 1;
        if (end < position) return 0;
        const { res, done } = await ctx.request(s, 'read', {
          json: { scope, host, start: position, end, ...st },
        });
        let at = 0;
        try {
          for await (const chunk of res as AsyncIterable<Buffer>) {
            if (at + chunk.length > into.length) throw new Error('more bytes than asked for');
            chunk.copy(into, at);
            at += chunk.length;
          }
        } finally {
          done();
        }
        return at;
      },
      close: async () => undefined,
    };
  },
  server: (impl, ctx) => ({
    routes: {
      stat: async (req, res) => {
        const a = await readJson<{ scope: FsScope; host: string }>(req);
        const h = await impl.openRead(ctx.scopeOf(a.scope), a.host);
        await h.close();
        ctx.json(res, 200, { result: { size: h.size, mtimeMs: h.mtimeMs } });
      },
      read: async (req, res) => {
        const job = await readJson<ReadJob>(req);
        await sendRange(impl, ctx, job, (h) => {
          const length = job.end - job.start + 1;
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': length });
          return h.pipeTo(res, job.start, job.end);
        });
      },
    },
    serve: (job, socket) => {
      const j = job as ReadJob;
      return sendRange(impl, ctx, j, (h) => h.pipeTo(socket, j.start, j.end));
    },
  }),
});

/**
 * A zip is laid out in the worker (its exact size known for the head) and kept there by id until it is streamed,
 * handed over or relayed, or closed unsent (a HEAD, a refused download).
 */
export const openZipCall: CustomCall<UserFs['openZip'], UserFs> = call.custom({
  client: (ctx) => async (s, items, fileLimit) => {
    const scope = ctx.wireScope(s);
    const z = await ctx.json<{ id: string; size: number; fileCount: number; totalSize: number }>(s, 'open', {
      json: { scope, items, fileLimit },
    });
    const job = { scope, id: z.id };
    let streamed = false;
    return {
      size: z.size,
      fileCount: z.fileCount,
      totalSize: z.totalSize,
      writeTo: async (out: Writable) => {
        streamed = true;
        const handed = await ctx.handOff(s, out, job);
        if (handed.error) throw handed.error;
        if (handed.handed) return;
        const { res, done } = await ctx.request(s, 'stream', { json: job });
        try {
          await relay(res, out);
        } catch (e) {
          out.destroy();
          throw e;
        } finally {
          done();
        }
      },
      close: async () => {
        if (!streamed) await ctx.json(s, 'close', { json: job }).catch(() => undefined);
      },
    };
  },
  server: (impl, ctx) => {
    const zips = new HandleStore<ZipHandle>();
    type ZipJob = { scope: FsScope; id: string };
    /** The zip, forgotten here: it is written once. */
    const take = (j: ZipJob) => {
      ctx.scopeOf(j.scope);
      return zips.remove(j.id);
    };
    return {
      routes: {
        open: async (req, res) => {
          const a = await readJson<{
            scope: FsScope;
            items: { host: string; name: string }[];
            fileLimit: number;
          }>(req);
          const h = await impl.openZip(ctx.scopeOf(a.scope), a.items, a.fileLimit);
          const result = { id: zips.add(h), size: h.size, fileCount: h.fileCount, totalSize: h.totalSize };
          ctx.json(res, 200, { result });
        },
        stream: async (req, res) => {
          const h = take(await readJson<ZipJob>(req));
          res.writeHead(200, { 'content-type': 'application/zip', 'content-length': h.size });
          await h.writeTo(res).finally(() => h.close());
        },
        close: async (req, res) => {
          const j = await readJson<ZipJob>(req);
          ctx.scopeOf(j.scope);
          await zips.close(j.id);
          ctx.json(res, 200, { result: null });
        },
      },
      serve: async (job, socket) => {
        const h = take(job as ZipJob);
        await h.writeTo(socket).finally(() => h.close());
      },
    };
  },
});
