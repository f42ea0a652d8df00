import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type net from 'node:net';
import { finished } from 'node:stream/promises';
import { CommonCodes, FileCodes, PortalCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { readJson, toWire, type WorkerService } from '@hpc/cluster-kit';
import type { LocalUserFs } from './local';
import type { FsScope, PartialHandle, ServeJob, ZipHandle } from './types';
import { readSmallFiles } from './wire';

/** The plain calls a worker answers: JSON arguments in, JSON out. */
const CALLS = new Set([
  'resolve',
  'list',
  'mkdir',
  'touch',
  'remove',
  'rename',
  'exist',
  'tree',
  'homeUsage',
  'access',
  'writeFile',
  'ensureDir',
  'finalizePartial',
  'unlink',
  'identify',
  'preparePartial',
  'fileSize',
  'sha256',
]);

const HANDLE_TTL_MS = 120_000;

/** Arguments of a streaming call travel in a header, the body being the bytes. */
const argsOf = <T>(req: IncomingMessage): T =>
  JSON.parse(Buffer.from(String(req.headers['x-args'] ?? ''), 'base64url').toString('utf8') || '{}') as T;

/**
 * Serves one user's LocalUserFs to the front end (see wire.ts). Runs inside the worker, after it has become the
 * user: every call below is checked by the kernel against the user's uid and groups, and by the resolver against
 * the scope the front end verified. Open zips and upload partials are kept by id between requests and closed
 * after two idle minutes. The cluster kit's worker host runs it (idle exit, the handed socket).
 *
 * `serve` answers a download or a zip on a client connection handed over by the front end (the kit's handoff.ts).
 */
export function workerServer(fsx: LocalUserFs): WorkerService {
  const zips = new Map<string, { h: ZipHandle; at: number }>();
  const partials = new Map<string, { h: PartialHandle; at: number }>();
  const sweep = setInterval(() => {
    const cutoff = Date.now() - HANDLE_TTL_MS;
    for (const [id, z] of zips) if (z.at < cutoff) void z.h.close().then(() => zips.delete(id));
    for (const [id, p] of partials) if (p.at < cutoff) void p.h.close().then(() => partials.delete(id));
  }, 30_000);
  sweep.unref();
  const newId = () => crypto.randomBytes(12).toString('hex');
  const json = (res: ServerResponse, status: number, body: unknown) => {
    const b = Buffer.from(JSON.stringify(body));
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': b.length });
    res.end(b);
  };
  const take = <T>(m: Map<string, { h: T; at: number }>, id: string) => {
    const e = m.get(id);
    if (!e)
      throw new AppError(CommonCodes.unavailable, 'The handle is gone (the worker restarted or it expired)');
    e.at = Date.now();
    return e.h;
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://worker');
    const route = url.pathname;
    if (route.startsWith('/call/')) {
      const method = route.slice(6);
      if (!CALLS.has(method)) throw new AppError(PortalCodes.notFound);
      const { scope, args } = await readJson<{ scope: FsScope; args: unknown[] }>(req);
      const fn = (fsx as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!;
      // JSON has no undefined: an omitted optional argument arrives as null.
      const out = await fn.call(fsx, scope, ...args.map((a) => (a === null ? undefined : a)));
      return json(res, 200, { result: out ?? null });
    }
    if (route === '/readFile') {
      const { scope, host, max } = await readJson<{ scope: FsScope; host: string; max: number }>(req);
      const buf = await fsx.readFile(scope, host, max);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': buf.length });
      return res.end(buf);
    }
    if (route === '/stat') {
      const { scope, host } = await readJson<{ scope: FsScope; host: string }>(req);
      const h = await fsx.openRead(scope, host);
      await h.close();
      return json(res, 200, { result: { size: h.size, mtimeMs: h.mtimeMs } });
    }
    if (route === '/read') {
      const a = await readJson<Extract<ServeJob, { kind: 'read' }>>(req);
      return sendRange(a, (h) => {
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': a.end - a.start + 1,
        });
        return h.pipeTo(res, a.start, a.end);
      });
    }
    if (route === '/zip/open') {
      const a = await readJson<{
        scope: FsScope;
        items: { host: string; name: string }[];
        fileLimit: number;
      }>(req);
      const h = await fsx.openZip(a.scope, a.items, a.fileLimit);
      const id = newId();
      zips.set(id, { h, at: Date.now() });
      return json(res, 200, { result: { id, size: h.size, fileCount: h.fileCount, totalSize: h.totalSize } });
    }
    if (route === '/zip/stream') {
      const id = url.searchParams.get('id') ?? '';
      const h = take(zips, id);
      zips.delete(id);
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': h.size });
      await h.writeTo(res).finally(() => h.close());
      return;
    }
    if (route === '/zip/close') {
      const id = url.searchParams.get('id') ?? '';
      await zips.get(id)?.h.close();
      zips.delete(id);
      return json(res, 200, { result: null });
    }
    if (route === '/partial/open') {
      const a = await readJson<{ scope: FsScope; host: string }>(req);
      const h = await fsx.openPartial(a.scope, a.host);
      const id = newId();
      partials.set(id, { h, at: Date.now() });
      return json(res, 200, { result: id });
    }
    if (route === '/partial/write') {
      const a = argsOf<{ id: string; offset: number }>(req);
      await take(partials, a.id).write(req as AsyncIterable<Buffer>, a.offset);
      return json(res, 200, { result: null });
    }
    if (route === '/partial/sync') {
      await take(partials, url.searchParams.get('id') ?? '').sync();
      return json(res, 200, { result: null });
    }
    if (route === '/partial/close') {
      const id = url.searchParams.get('id') ?? '';
      await partials.get(id)?.h.close();
      partials.delete(id);
      return json(res, 200, { result: null });
    }
    if (route === '/writeStream') {
      const a = argsOf<{ scope: FsScope; path: string; overwrite: boolean }>(req);
      return json(res, 200, {
        result: await fsx.writeStream(a.scope, a.path, req as AsyncIterable<Buffer>, a.overwrite),
      });
    }
    if (route === '/extractTar') {
      const a = argsOf<{ scope: FsScope; base: string; overwrite: boolean }>(req);
      return json(res, 200, {
        result: await fsx.extractTar(a.scope, a.base, req as AsyncIterable<Buffer>, a.overwrite),
      });
    }
    if (route === '/storeSmall') {
      // Several small files of a batch in one request (see WorkerUserFs.storeSmall): stored at once, each answered
      // on its own (a refusal of one is not the others').
      const b = await readSmallFiles(req);
      const results = await Promise.all(
        b.files.map(async (f) => {
          try {
            await fsx.storeSmall(b.scope, f.dir, f.name, [f.data], f.sha256, b.overwrite);
            return null;
          } catch (e) {
            return toWire(e);
          }
        }),
      );
      return json(res, 200, { result: results });
    }
    if (route === '/walk') {
      // Entries as JSON lines (any count, never a whole tree in memory), then `done` or the error that stopped it.
      const a = await readJson<{ scope: FsScope; host: string; base: string }>(req);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      let gone = false;
      res.on('close', () => (gone = true));
      try {
        for await (const e of fsx.walk(a.scope, a.host, a.base)) {
          if (gone) return;
          // Waits for the front end to take the lines (a slow download client holds the walk back).
          if (!res.write(JSON.stringify({ e }) + '\n'))
            await new Promise<void>((r) => {
              res.once('drain', r);
              res.once('close', r);
            });
        }
        res.end(JSON.stringify({ done: true }) + '\n');
      } catch (e) {
        res.end(JSON.stringify({ error: toWire(e) }) + '\n');
      }
      return;
    }
    if (route === '/transfer') {
      // Progress as JSON lines; the front end closing the request cancels the copy.
      const a = await readJson<{ scope: FsScope; args: Parameters<LocalUserFs['transfer']>[1] }>(req);
      const ac = new AbortController();
      res.on('close', () => ac.abort());
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      try {
        await fsx.transfer(
          a.scope,
          a.args,
          (p) => res.write(JSON.stringify({ progress: p }) + '\n'),
          ac.signal,
        );
        res.end(JSON.stringify({ done: true }) + '\n');
      } catch (e) {
        res.end(JSON.stringify({ error: toWire(e) }) + '\n');
      }
      return;
    }
    throw new AppError(PortalCodes.notFound);
  }

  /** A range of a file by the front end's /stat: the file must still be that file (same size and time). */
  async function sendRange(
    a: Extract<ServeJob, { kind: 'read' }>,
    send: (h: Awaited<ReturnType<LocalUserFs['openRead']>>) => Promise<void>,
  ) {
    const h = await fsx.openRead(a.scope, a.host);
    try {
      if (h.size !== a.size || h.mtimeMs !== a.mtimeMs)
        throw new AppError(FileCodes.notFound, 'The file changed since its size was sent');
      await send(h);
    } finally {
      await h.close();
    }
  }

  /**
   * Writes a whole answer on a handed-over client connection: the front end's head, then the bytes, then the end
   * of the connection (the head says `Connection: close`). A failure after the head cuts the connection, as a relay
   * would: the client sees fewer bytes than the Content-Length it was promised, never a wrong file.
   */
  async function serve(job: ServeJob, head: string, socket: net.Socket): Promise<void> {
    try {
      socket.write(Buffer.from(head, 'latin1'));
      if (job.kind === 'read') await sendRange(job, (h) => h.pipeTo(socket, job.start, job.end));
      else {
        const h = take(zips, job.id);
        zips.delete(job.id);
        await h.writeTo(socket).finally(() => h.close());
      }
      // The writers end the connection when done (or cut it when the client left): wait for the last byte.
      await finished(socket, { readable: false });
      // A client that keeps its side open would keep this descriptor: read to its end, or give up after 30 s.
      socket.setTimeout(30_000, () => socket.destroy());
      socket.resume();
    } catch (e) {
      socket.destroy();
      throw e;
    }
  }

  return {
    handle: async (req, res) => void (await handle(req, res)),
    serve: (job, head, socket) => serve(job as ServeJob, head, socket),
  };
}
