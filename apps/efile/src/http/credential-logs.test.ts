import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINUX_TOKEN_HEADER } from '@hpc/contracts';
import { createServer, signClusterToken, type AppServer } from '@hpc/server-kit';
import { makePortalKeys, makeTempDir } from '@hpc/server-kit/testing';
import { registerEfile } from '../app';
import { readEfileConfig } from '../config';
import { openEfileDeps, type EfileDeps } from '../deps';
import { CLUSTER, DEMO_RIGHTS, FORM, form } from '../efile.test-fixture';

type Json = { code: string; data: Record<string, unknown> };

/**
 * Issue 10 §2.4: no bearer credential in the logs, and the cluster token off every address. A real efile logging at
 * `info` into a buffer; every credential the test uses is then looked for in everything it logged.
 */
describe('credentials stay out of URLs and logs', () => {
  const tmp = makeTempDir('efile-logs-');
  const lines: string[] = [];
  let app: AppServer;
  let deps: EfileDeps;
  let token: string;
  const used = new Set<string>();
  const home = path.join(tmp.dir, 'root/public/home/demo');

  beforeAll(async () => {
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(home + '/a.txt', 'alpha');
    fs.writeFileSync(home + '/b.png', 'not really a png');
    const keys = await makePortalKeys();
    const config = readEfileConfig({
      EFILE_CLUSTER_ID: CLUSTER,
      DATA_DIR: path.join(tmp.dir, 'data'),
      EFILE_FS_ROOT: path.join(tmp.dir, 'root'),
      DATABASE_URL: path.join(tmp.dir, 'efile.db'),
      EFILE_SWEEP_INTERVAL_MINUTES: '0',
    });
    app = createServer({ logLevel: 'info', logStream: { write: (l) => void lines.push(l) } });
    deps = await openEfileDeps(config, {
      jwks: () => keys.jwks,
      ownerRights: async () => ({ ...DEMO_RIGHTS, paths: [] }),
    });
    await registerEfile(app, deps);
    token = await signClusterToken(keys.privateKey, 'k1', {
      sub: 'u-demo',
      aud: CLUSTER,
      cun: 'demo',
      home: '/public/home/demo',
      paths: [],
      st: 'Normal',
      exp_acct: null,
    });
    used.add(token);
  });
  afterAll(async () => {
    await app.close();
    await deps.close();
    tmp.cleanup();
  });

  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    opts: { body?: string; auth?: boolean; linuxToken?: string } = {},
  ) => {
    const headers: Record<string, string> = opts.auth === false ? {} : { token };
    if (opts.linuxToken) headers[LINUX_TOKEN_HEADER] = opts.linuxToken;
    if (method === 'POST') Object.assign(headers, FORM);
    if (method === 'PUT') headers['content-type'] = 'application/octet-stream';
    return app.inject({ method, url, headers, payload: opts.body });
  };

  it('takes ?token= only on the GETs a browser opens itself, never on a POST or another call', async () => {
    const q = `token=${encodeURIComponent(token)}`;
    const noHeader = { auth: false };
    expect((await call('GET', `/download.action?path=/public/home/demo/a.txt&${q}`, noHeader)).body).toBe(
      'alpha',
    );
    const mk = await call('POST', `/mkdir.action?${q}`, {
      ...noHeader,
      body: form({ path: '/public/home/demo/x' }),
    });
    expect(mk.json<Json>().code).toBe('1406');
    expect(fs.existsSync(home + '/x')).toBe(false);
    const list = await call('GET', `/list.action?path=/public/home/demo&${q}`, noHeader);
    expect(list.json<Json>().code).toBe('1406');
  });

  it('downloads and previews with a one-minute ticket bound to its action and parameters', async () => {
    const ask = async (body: Record<string, string | string[]>) => {
      const r = (await call('POST', '/browserTicket.action', { body: form(body) })).json<Json>();
      expect(r.code).toBe('0');
      const t = r.data.ticket as string;
      used.add(t);
      return t;
    };
    const t1 = await ask({ action: 'download', path: '/public/home/demo/a.txt' });
    const get = (url: string) => call('GET', url, { auth: false });
    expect((await get(`/download.action?path=/public/home/demo/a.txt&ticket=${t1}`)).body).toBe('alpha');
    // Not for another file, another action, nor a POST.
    expect((await get(`/download.action?path=/public/home/demo/b.png&ticket=${t1}`)).json<Json>().code).toBe(
      '1406',
    );
    expect(
      (await get(`/preview/raw.action?path=/public/home/demo/a.txt&ticket=${t1}`)).json<Json>().code,
    ).toBe('1406');
    const viaPost = await app.inject({
      method: 'POST',
      url: `/mkdir.action?ticket=${t1}`,
      headers: FORM,
      payload: form({ path: '/public/home/demo/y' }),
    });
    expect(viaPost.json<Json>().code).toBe('1406');
    const t2 = await ask({ action: 'previewRaw', path: '/public/home/demo/b.png' });
    expect((await get(`/preview/raw.action?path=/public/home/demo/b.png&ticket=${t2}`)).statusCode).toBe(200);
    const t3 = await ask({
      action: 'multiDownload',
      paths: ['/public/home/demo/a.txt', '/public/home/demo/b.png'],
    });
    const zip = await get(
      `/multiDownload.action?paths=/public/home/demo/a.txt&paths=/public/home/demo/b.png&ticket=${t3}`,
    );
    expect(zip.headers['content-type']).toBe('application/zip');
    // A ticket cannot buy another ticket.
    const again = await app.inject({
      method: 'POST',
      url: `/browserTicket.action?ticket=${t3}`,
      headers: FORM,
      payload: form({ action: 'download', path: '/public/home/demo/a.txt' }),
    });
    expect(again.json<Json>().code).toBe('1406');
  });

  it('logs none of the credentials used: cluster token, tickets, Linux-command and share tokens, share codes', async () => {
    // Linux commands: the token in its header; a command from before the header (token as a path segment) is
    // answered 404, and its line is redacted all the same.
    const ut = (
      await call('POST', '/getUserToken.action', { body: form({ path: '/public/home/demo' }) })
    ).json<Json>().data.token as string;
    used.add(ut);
    expect(
      (await call('PUT', '/linux/put/up.txt', { body: 'up', auth: false, linuxToken: ut })).json<Json>().code,
    ).toBe('0');
    expect((await call('GET', '/linux/get', { auth: false, linuxToken: ut })).statusCode).toBe(200);
    expect((await call('PUT', `/linux/put/${ut}/up.txt`, { body: 'up', auth: false })).statusCode).toBe(404);
    expect((await call('GET', `/linux/get/${ut}`, { auth: false })).statusCode).toBe(404);
    // Shares: the extraction code in open's query, the share token in the recipient's.
    const code = 'Secret42code';
    used.add(code);
    const share = (
      await call('GET', `/share/open.action?path=/public/home/demo/a.txt&validDays=1&password=${code}`)
    ).json<Json>().data.shareId as string;
    const v = (
      await call('POST', '/share/public/verify.action', {
        auth: false,
        body: form({ shareId: share, password: code }),
      })
    ).json<Json>();
    const st = v.data.shareToken as string;
    used.add(st);
    expect((await call('GET', `/share/public/download.action?shareToken=${st}`, { auth: false })).body).toBe(
      'alpha',
    );
    // An error path too: a bad ticket and a bad token are logged as request lines like any other.
    await call('GET', `/download.action?path=/public/home/demo/a.txt&ticket=${st}`, { auth: false });

    const log = lines.join('');
    expect(log.split('\n').filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThan(10);
    expect(log).toContain('[redacted]');
    for (const secret of used) expect(log.includes(secret), `logged: ${secret.slice(0, 12)}…`).toBe(false);
  });
});
