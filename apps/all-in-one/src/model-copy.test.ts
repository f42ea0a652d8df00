import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { Browser, PASSWORD, startDemo, type App } from './all-in-one.test-fixture';

/**
 * The model zoo's file view and "copy to my E-File" end to end on the server side: the all-in-one composition
 * (demo catalogue with model files, demo identity, cluster 11250's efile mounted at /efile/11250), driven through
 * HTTP only. SQLite: the all-in-one's PostgreSQL mode uses fixed efile schema names.
 */
async function start() {
  const tmp = makeTempDir('model-copy-');
  const app = await startDemo(tmp.dir);
  return {
    app,
    dataDir: tmp.dir,
    host: (p: string) => path.join(tmp.dir, 'clusters', '11250', p),
    async close() {
      await app.close();
      tmp.cleanup();
    },
  };
}

/** The fixture's browser with the page's two kinds of call. */
class ZooBrowser extends Browser {
  get = (url: string) => this.call('GET', url);
  post = (url: string, opts: { json?: unknown; noCsrf?: boolean } = {}) =>
    this.call('POST', url, opts.json, opts.noCsrf);
}

async function loggedIn(app: App, username: string): Promise<ZooBrowser> {
  const b = new ZooBrowser(app);
  const res = await b.post('/api/auth/login', { json: { username, password: PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.body}`);
  return b;
}

const dataOf = <T>(res: LightMyRequestResponse): T => res.json<{ data: T }>().data;

type Job = {
  jobId: string;
  state: string;
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
  targetPath: string;
  error: { code: string } | null;
};
type Files = { files: Array<{ path: string; size: number; sha256: string }>; totalSize: number };

const sha = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

describe('model files and copy to E-File (all-in-one)', () => {
  let h: Awaited<ReturnType<typeof start>>;
  let demo: ZooBrowser;
  let qwenId: number;
  beforeAll(async () => {
    h = await start();
    demo = await loggedIn(h.app, 'demo');
    const list = await h.app.inject({
      method: 'POST',
      url: '/model-zoo/model/list',
      payload: { keyword: 'Qwen2.5-7B-Instruct' },
    });
    const models = dataOf<{ list: Array<{ id: number; nameEn: string }> }>(list).list;
    qwenId = models.find((m) => m.nameEn === 'Qwen2.5-7B-Instruct')!.id;
  }, 120_000);
  afterAll(async () => h?.close());

  const copy = (b: ZooBrowser, body: object, id = qwenId) =>
    b.post(`/api/model-zoo/model/${id}/copy`, { json: body });
  /** Polls until the copy leaves "running" (no time limit but the test's own). */
  async function settle(b: ZooBrowser, jobId: string): Promise<Job> {
    for (;;) {
      const job = dataOf<Job>(await b.get(`/api/model-zoo/copy/${jobId}`));
      if (job.state !== 'running') return job;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('lists a model’s files sorted by path, with sizes and the sha256 of the bytes each download sends', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/model-zoo/model/${qwenId}/files` });
    expect(res.statusCode).toBe(200);
    const { files, totalSize } = dataOf<Files>(res);
    const paths = files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toEqual(
      expect.arrayContaining([
        'README.md',
        'config.json',
        'examples/chat.py',
        'model-00001-of-00002.safetensors',
      ]),
    );
    expect(totalSize).toBe(files.reduce((n, f) => n + f.size, 0));
    for (const f of files) {
      const dl = await h.app.inject({
        method: 'GET',
        url: `/model-zoo/model/${qwenId}/file?path=${encodeURIComponent(f.path)}`,
      });
      expect(dl.statusCode).toBe(200);
      expect(dl.rawPayload.length).toBe(f.size);
      expect(sha(dl.rawPayload)).toBe(f.sha256);
      expect(dl.headers['content-type']).toBe('application/octet-stream');
      expect(dl.headers['x-content-type-options']).toBe('nosniff');
      expect(dl.headers['content-disposition']).toContain(
        `filename*=UTF-8''${encodeURIComponent(path.posix.basename(f.path))}`,
      );
    }
    // The README is the model's description.
    const readme = await h.app.inject({
      method: 'GET',
      url: `/model-zoo/model/${qwenId}/file?path=README.md`,
    });
    expect(readme.body).toContain('# Qwen2.5-7B-Instruct');
  });

  it('serves only listed files: a path is a key, never joined onto a folder', async () => {
    for (const p of ['../../../keys/private.pem', '/etc/passwd', 'examples/../config.json', 'nope.bin']) {
      const res = await h.app.inject({
        method: 'GET',
        url: `/model-zoo/model/${qwenId}/file?path=${encodeURIComponent(p)}`,
      });
      expect([res.statusCode, res.json().code]).toEqual([404, '1020']);
    }
    const unknown = await h.app.inject({ method: 'GET', url: '/model-zoo/model/999999/files' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, '404']);
    const bad = await h.app.inject({ method: 'GET', url: '/model-zoo/model/abc/files' });
    expect(bad.json().code).toBe('1004');
  });

  it('answers an empty list for a model without files', async () => {
    const list = await h.app.inject({
      method: 'POST',
      url: '/model-zoo/model/list',
      payload: { keyword: 'ResNet-50' },
    });
    const id = dataOf<{ list: Array<{ id: number }> }>(list).list[0]!.id;
    expect(dataOf<Files>(await h.app.inject({ method: 'GET', url: `/model-zoo/model/${id}/files` }))).toEqual(
      {
        files: [],
        totalSize: 0,
      },
    );
    expect(
      (await copy(demo, { clusterId: '11250', parentPath: '/public/home/demo', name: 'r' }, id)).json().code,
    ).toBe('1020');
  });

  it('copies the files into a new folder of the user’s home, every byte and sha256, with progress to the end', async () => {
    const { files } = dataOf<Files>(
      await h.app.inject({ method: 'GET', url: `/model-zoo/model/${qwenId}/files` }),
    );
    const info = dataOf<{ homePath: string }>(await demo.get('/model-zoo/proxy/efile/info?clusterId=11250'));
    const res = await copy(demo, {
      clusterId: '11250',
      parentPath: info.homePath,
      name: 'Qwen2.5-7B-Instruct',
    });
    expect(res.statusCode).toBe(200);
    const started = dataOf<Job>(res);
    expect(started).toMatchObject({ state: 'running', targetPath: '/public/home/demo/Qwen2.5-7B-Instruct' });
    const job = await settle(demo, started.jobId);
    expect(job).toMatchObject({
      state: 'success',
      error: null,
      filesDone: files.length,
      filesTotal: files.length,
    });
    expect(job.bytesDone).toBe(job.bytesTotal);
    for (const f of files) {
      expect(sha(fs.readFileSync(h.host(`public/home/demo/Qwen2.5-7B-Instruct/${f.path}`)))).toBe(f.sha256);
    }
    // No staging folder stays behind.
    expect(fs.readdirSync(h.host('public/home/demo')).filter((n) => n.includes('.copy-'))).toEqual([]);

    // The same name again is refused at once, and nothing changes.
    const again = await copy(demo, {
      clusterId: '11250',
      parentPath: info.homePath,
      name: 'Qwen2.5-7B-Instruct',
    });
    expect([again.statusCode, again.json().code]).toEqual([409, '1023']);
  });

  it('keeps a job to its owner and refuses what cannot work with the code of spec §8', async () => {
    const started = dataOf<Job>(
      await copy(demo, { clusterId: '11250', parentPath: '/public/home/demo', name: 'mine' }),
    );
    const lisi = await loggedIn(h.app, 'lisi');
    expect((await lisi.get(`/api/model-zoo/copy/${started.jobId}`)).json().code).toBe('404');
    expect((await lisi.post(`/api/model-zoo/copy/${started.jobId}/cancel`)).json().code).toBe('404');
    await settle(demo, started.jobId);

    const body = { clusterId: '11250', parentPath: '/public/home/demo', name: 'x' };
    const anonymous = await copy(new ZooBrowser(h.app), body);
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, '401']);
    expect(
      (await demo.post(`/api/model-zoo/model/${qwenId}/copy`, { json: body, noCsrf: true })).json().code,
    ).toBe('CSRF');
    const wangwu = await loggedIn(h.app, 'wangwu');
    expect((await copy(wangwu, body)).json().code).toBe('612007');
    expect((await copy(demo, { ...body, clusterId: '11252' })).json().code).toBe('601009');
    expect((await copy(lisi, { ...body, clusterId: '11252' })).json().code).toBe('1001');
    expect((await copy(demo, { ...body, name: '..' })).json().code).toBe('1027');
    expect((await copy(demo, { ...body, name: 'a/b' })).json().code).toBe('1027');
    expect((await copy(demo, { ...body, name: '   ' })).json().code).toBe('1004');
    expect((await copy(demo, { ...body, parentPath: 'public/home/demo' })).json().code).toBe('1004');
    expect((await copy(demo, { ...body, parentPath: '/public/home/demo/../other' })).json().code).toBe(
      '1004',
    );
    const outside = await copy(demo, { ...body, parentPath: '/etc' });
    expect(outside.json().code).not.toBe('0');
    expect(fs.existsSync(h.host('etc/x'))).toBe(false);
    const missing = await copy(demo, { ...body, parentPath: '/public/home/demo/no-such-folder' });
    expect(missing.json().code).toMatch(/^10(20|24)$/);
  });

  it('runs one copy per user at a time (spec §4)', async () => {
    // Two copies at once from one user: whichever asks second while the first runs is refused. The first is
    // held back by a cancel-free trick: both start calls are sent together, and the lock is taken before any byte.
    const body = (name: string) => ({ clusterId: '11250', parentPath: '/public/home/demo', name });
    const [a, b] = await Promise.all([copy(demo, body('one')), copy(demo, body('two'))]);
    const codes = [a.json().code, b.json().code].sort();
    if (codes[1] === 'OPERATION_LIMIT') {
      expect(codes).toEqual(['0', 'OPERATION_LIMIT']);
      const refused = a.json().code === 'OPERATION_LIMIT' ? 'one' : 'two';
      expect((a.json().code === 'OPERATION_LIMIT' ? a : b).statusCode).toBe(429);
      expect(fs.existsSync(h.host(`public/home/demo/${refused}`))).toBe(false);
    } else {
      // The first finished before the second asked: both ran, one after the other.
      expect(codes).toEqual(['0', '0']);
    }
    for (const r of [a, b]) if (r.json().code === '0') await settle(demo, dataOf<Job>(r).jobId);
  });

  it('fails a copy whose stored file no longer matches its sha256, and leaves nothing behind', async () => {
    const { files } = dataOf<Files>(
      await h.app.inject({ method: 'GET', url: `/model-zoo/model/${qwenId}/files` }),
    );
    const victim = files.find((f) => f.path === 'config.json')!;
    const stored = path.join(h.dataDir, 'catalog', 'model-files', 'qwen2.5-7b-instruct', 'config.json');
    const original = fs.readFileSync(stored);
    // Same size, different bytes.
    fs.writeFileSync(stored, Buffer.from(original.toString().replace('qwen2', 'QWEN2')));
    try {
      const started = dataOf<Job>(
        await copy(demo, { clusterId: '11250', parentPath: '/public/home/demo', name: 'tampered' }),
      );
      const job = await settle(demo, started.jobId);
      expect(job.state).toBe('error');
      expect(job.error?.code).toBe('1010');
      expect(fs.existsSync(h.host('public/home/demo/tampered'))).toBe(false);
      expect(fs.readdirSync(h.host('public/home/demo')).filter((n) => n.includes('.copy-'))).toEqual([]);
    } finally {
      fs.writeFileSync(stored, original);
    }
    expect(sha(fs.readFileSync(stored))).toBe(victim.sha256);
  });
});
