/* eslint-disable @typescript-eslint/no-unsafe-call -- inject().json() is untyped in route tests */
import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@hpc/server-kit';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';
import { openForRead } from '../../fs/file-ops';
import { copyTree } from '../../fs/copy-tree';
import { listDirectory } from '../../fs/listing';
import { collectEntries, zipArchive } from '../../fs/zip-stream';
import { PARTIAL_SUFFIX, tempName } from '../../fs/names';

const HOME = '/public/home/demo';
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (isAppError(e) ? e.code : `raw ${(e as NodeJS.ErrnoException).code ?? String(e)}`),
  );

/**
 * Issue 10 §2, holes 1, 7, 8 and 9 as a hostile cluster user finds them with a shell on the node and the portal's
 * own calls. Each answer must be the spec's code, never a 500 and never a hang.
 */
describe('hostile inputs', () => {
  let h: Harness;
  let token: string;
  const get = (url: string) => h.app.inject({ method: 'GET', url, headers: { token } });
  const post = (url: string, body: Record<string, string | number | boolean | string[]>) =>
    h.app.inject({ method: 'POST', url, headers: { token, ...FORM }, payload: form(body) });
  const mkfifo = (p: string) => execFileSync('mkfifo', [p]);

  let base: string;
  /** A multipart chunk POST over real HTTP, as the browser sends it. */
  const postChunk = async (params: Record<string, string>, bytes: Buffer) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(params)) fd.append(k, v);
    fd.append('file', new Blob([bytes]), params.filename);
    const r = await fetch(`${base}/chunkUpload.action`, { method: 'POST', body: fd, headers: { token } });
    return (await r.json()) as { code: string };
  };
  /** A GET over real HTTP; a body cut short counts as an answer (the status line came). */
  const fetchStatus = async (url: string, body?: string) => {
    // The file can turn into a FIFO after a zip's size went out: the zip is then cut, before or after the
    // status line (a fetch failure). Either way an answer came, which is what a frozen server never gives.
    const init = body ? { method: 'POST', body, headers: { token, ...FORM } } : { headers: { token } };
    const r = await fetch(base + url, init).catch(() => null);
    await r?.arrayBuffer().catch(() => undefined);
    return r?.status ?? 0;
  };

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    fs.writeFileSync(h.host('/public/home/other/secret.txt'), 'other user');
  });
  afterAll(() => h.close());

  describe('§2.1 a FIFO never holds a thread', () => {
    it('opening a FIFO for reading answers 1028 at once instead of waiting for a writer', async () => {
      const fifo = path.join(h.home, 'pipe.fifo');
      mkfifo(fifo);
      expect(await codeOf(openForRead(fifo))).toBe('1028');
      // The zip reads what the walk saw as a file: a FIFO swapped in since is refused, not opened for good.
      const zip = zipArchive([
        { host: fifo, name: 'x', dir: false, size: 3, mtime: new Date(), mode: 0o644 },
      ]);
      const sink = new (await import('node:stream')).PassThrough();
      sink.resume();
      expect(await codeOf(zip.writeTo(sink))).toBe('1028');
    });

    it('a FIFO at an upload’s partial name is refused (a write-only open would wait for a reader)', async () => {
      const size = 1000;
      const identifier = `${size}-fifoupload`;
      const target = `${HOME}/fifo-upload.bin`;
      const id = crypto
        .createHash('sha256')
        .update(`u-demo\0${target}\0${identifier}`)
        .digest('hex')
        .slice(0, 40);
      mkfifo(path.join(h.home, tempName('fifo-upload.bin', PARTIAL_SUFFIX, id.slice(0, 12))));
      const r = await postChunk(
        {
          chunkNumber: '1',
          chunkSize: '1024',
          currentChunkSize: String(size),
          totalSize: String(size),
          identifier,
          filename: 'fifo-upload.bin',
          relativePath: 'fifo-upload.bin',
          totalChunks: '1',
          path: HOME,
        },
        Buffer.alloc(size),
      );
      expect(r.code).toBe('1028');
      expect(fs.existsSync(path.join(h.home, 'fifo-upload.bin'))).toBe(false);
    });

    it('swapping a FIFO and a file under one name while downloading, previewing and zipping leaves the server answering', async () => {
      const name = path.join(h.home, 'swap.txt');
      const other = path.join(h.home, '.swap-other');
      const spare = path.join(h.home, '.swap-spare');
      fs.writeFileSync(name, 'hello');
      mkfifo(other);
      let stop = false;
      let swaps = 0;
      const swapper = (async () => {
        while (!stop) {
          // Three renames exchange the file and the FIFO under `name`.
          fs.renameSync(name, spare);
          fs.renameSync(other, name);
          fs.renameSync(spare, other);
          swaps++;
          await new Promise((r) => setImmediate(r));
        }
      })();
      const calls: Promise<number>[] = [];
      try {
        for (let i = 0; i < 40; i++) {
          calls.push(fetchStatus(`/download.action?path=${HOME}/swap.txt`));
          calls.push(fetchStatus('/previewTextFile.action', form({ path: `${HOME}/swap.txt` })));
          calls.push(fetchStatus(`/multiDownload.action?paths=${HOME}/swap.txt&paths=${HOME}/pipe.fifo`));
        }
        const statuses = await Promise.all(calls);
        for (const s of statuses) expect(s).toBeLessThan(500);
      } finally {
        stop = true;
        await swapper;
      }
      expect(swaps).toBeGreaterThan(0);
      // More than the thread pool's 4 threads were asked to open the FIFO: a listing still answers.
      expect((await get(`/list.action?path=${HOME}`)).json().code).toBe('0');
    });
  });

  describe('§2.7 ordinary inputs get codes, not 500s', () => {
    beforeAll(() => {
      fs.symlinkSync(path.join(h.home, 'nothing-here'), path.join(h.home, 'dangling'));
      fs.writeFileSync(path.join(h.home, 'plain.txt'), 'x');
    });

    it('a dangling link in list, treeChildrenList and checkPermission', async () => {
      expect((await get(`/list.action?path=${HOME}/dangling`)).json().code).toBe('1024');
      expect((await get(`/treeChildrenList.action?path=${HOME}/dangling`)).json().code).toBe('1020');
      const perm = await post('/checkPermission.action', {
        path: `${HOME}/dangling`,
        permissionAction: 'read',
      });
      expect(perm.json()).toMatchObject({ code: '0', data: { allowded: false } });
      // The listing of its folder still shows it, as a bare link.
      const list = (await get(`/list.action?path=${HOME}`)).json();
      expect(list.data.list.find((e: { name: string }) => e.name === 'dangling')).toMatchObject({
        type: 'link',
      });
    });

    it('treeChildrenList on a file', async () => {
      expect((await get(`/treeChildrenList.action?path=${HOME}/plain.txt`)).json().code).toBe('1022');
    });

    it('a chunk at a 17 TiB offset is refused with 1011 and leaves nothing behind', async () => {
      const chunk = 1024;
      const total = 17 * 2 ** 40 + chunk;
      const r = await postChunk(
        {
          chunkNumber: String(total / chunk),
          chunkSize: String(chunk),
          currentChunkSize: String(chunk),
          totalSize: String(total),
          identifier: `${total}-huge`,
          filename: 'huge.bin',
          relativePath: 'huge.bin',
          totalChunks: String(total / chunk),
          path: HOME,
        },
        Buffer.alloc(chunk),
      );
      expect(r.code).toBe('1011');
      expect(fs.readdirSync(h.home).filter((n) => n.includes('huge'))).toEqual([]);
    });

    it('a folder or file that vanished answers its code', async () => {
      const gone = path.join(h.home, 'gone');
      const inside = async () => true;
      const opts = { pageNum: 1, pageSize: 10, sort: 'name', order: 'asc' as const };
      expect(await codeOf(listDirectory(gone, `${HOME}/gone`, opts, inside))).toBe('1024');
      const progress = { bytesDone: 0, filesDone: 0 };
      expect(
        await codeOf(copyTree(gone, path.join(h.home, 'copy'), progress, new AbortController().signal)),
      ).toBe('1020');
      expect(await codeOf(openForRead(gone))).toBe('1020');
      // A folder that the walk saw but that is gone when its entries are read.
      expect(
        await codeOf(collectEntries([{ host: path.join(h.home, 'plain.txt/x'), name: 'x' }], inside, 10)),
      ).toBe('ok');
    });
  });

  it('§2.8 a link out of the roots answers the same whether its target exists or not', async () => {
    fs.symlinkSync(h.host('/public/home/other/secret.txt'), path.join(h.home, 'to-existing'));
    fs.symlinkSync(h.host('/public/home/other/no-such-file'), path.join(h.home, 'to-missing'));
    fs.symlinkSync(h.host('/public/home/other/no-dir/no-file'), path.join(h.home, 'to-missing-deeper'));
    // A chain: an inside link to an outside dangling one.
    fs.symlinkSync(path.join(h.home, 'to-missing'), path.join(h.home, 'chain'));
    const answers = async (name: string) => {
      const p = `${HOME}/${name}`;
      return [
        (await post('/exist.action', { path: p })).body,
        (await get(`/download.action?path=${p}`)).body,
        (await post('/checkPermission.action', { path: p, permissionAction: 'read' })).body,
        (await get(`/list.action?path=${p}`)).body,
        (await post('/previewTextFile.action', { path: p })).body,
      ];
    };
    const existing = await answers('to-existing');
    expect(existing[0]).toContain('"1030"');
    expect(await answers('to-missing')).toEqual(existing);
    expect(await answers('to-missing-deeper')).toEqual(existing);
    expect(await answers('chain')).toEqual(existing);
  });

  it('§2.9 a 2,500-level folder is copied', async () => {
    const deep = path.join(h.home, 'deep');
    fs.mkdirSync(deep);
    // Built and read through descriptors (/proc/self/fd/<fd>/d): a path this deep is beyond PATH_MAX.
    let fd = fs.openSync(deep, 'r');
    for (let i = 0; i < 2500; i++) {
      fs.mkdirSync(`/proc/self/fd/${fd}/d`);
      const next = fs.openSync(`/proc/self/fd/${fd}/d`, 'r');
      fs.closeSync(fd);
      fd = next;
    }
    fs.writeFileSync(`/proc/self/fd/${fd}/f`, 'leaf\n');
    fs.closeSync(fd);
    fs.mkdirSync(path.join(h.home, 'deep-dst'));
    try {
      const r = await post('/copy.action', {
        paths: [`${HOME}/deep`],
        targetPath: `${HOME}/deep-dst`,
        cover: false,
      });
      expect(r.json().code).toBe('0');
      let p: { status: string; errorCode: string | null; filesDone: number } = {
        status: 'running',
        errorCode: null,
        filesDone: 0,
      };
      while (p.status === 'running') {
        await new Promise((res) => setTimeout(res, 50));
        p = (await get(`/operationProgress.action?operationId=${r.json().data.operationId}`)).json().data;
      }
      expect(p).toMatchObject({ status: 'done', errorCode: null, filesDone: 1 });
      let at = fs.openSync(path.join(h.home, 'deep-dst/deep'), 'r');
      for (let i = 0; i < 2500; i++) {
        const next = fs.openSync(`/proc/self/fd/${at}/d`, 'r');
        fs.closeSync(at);
        at = next;
      }
      const leaf = fs.readFileSync(`/proc/self/fd/${at}/f`);
      fs.closeSync(at);
      expect(leaf.toString()).toBe('leaf\n');
    } finally {
      execFileSync('rm', ['-rf', deep, path.join(h.home, 'deep-dst')]);
    }
  });
});
