import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { buildPortal } from '../../app';
import { readPortalConfig } from '../../config';

describe('GET /api/site/config', () => {
  const tmp = makeTempDir();
  afterAll(() => tmp.cleanup());

  it('answers the configured registration number to anyone', async () => {
    const config = readPortalConfig({
      DATA_DIR: tmp.dir,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      SITE_ICP: '皖ICP备12345678号',
    });
    const { app } = await buildPortal(config);
    const r = await app.inject({ method: 'GET', url: '/api/site/config' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      code: '0',
      msg: 'success',
      data: { icp: '皖ICP备12345678号', icpUrl: 'https://beian.miit.gov.cn/', analytics: null },
    });
    await app.close();
  });

  it('answers the analytics tracker and production hosts only when both are configured', async () => {
    const answer = async (env: Record<string, string>) => {
      const { app } = await buildPortal(
        readPortalConfig({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env }),
      );
      const r = await app.inject({ method: 'GET', url: '/api/site/config' });
      await app.close();
      return r.json<{ data: { analytics: unknown } }>().data.analytics;
    };
    expect(
      await answer({
        ANALYTICS_TRACKER_URL: 'https://track.example.cn/collect',
        ANALYTICS_HOSTS: 'portal.example.cn, Www.Portal.example.cn',
      }),
    ).toEqual({
      trackerUrl: 'https://track.example.cn/collect',
      hosts: ['portal.example.cn', 'www.portal.example.cn'],
    });
    expect(await answer({ ANALYTICS_TRACKER_URL: 'https://track.example.cn/collect' })).toBeNull();
    expect(await answer({ ANALYTICS_HOSTS: 'portal.example.cn' })).toBeNull();
  });

  it('serves the static 404 page without the app, in both languages', async () => {
    const config = readPortalConfig({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
    const { app } = await buildPortal(config);
    const page = await app.inject({ method: 'GET', url: '/404.html', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('您访问的页面不存在');
    expect(page.body).toContain('The page you visited does not exist');
    expect(page.body).toContain('href="/login"');
    // No app: neither its root element nor any of its bundles; only the page's own small script.
    expect(page.body).not.toContain('id="root"');
    expect(page.body).not.toContain('/assets/');
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/404.js']);
    const script = await app.inject({ method: 'GET', url: '/404.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    await app.close();
  });

  it('answers an address the web has no page for with 404 and the static page, and its pages with the app', async () => {
    // A built web app of one line, so the SPA fallback is on.
    const web = path.join(tmp.dir, 'web');
    fs.mkdirSync(web, { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<html><div id="root"></div></html>');
    const config = readPortalConfig({
      DATA_DIR: tmp.dir,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      WEB_DIST: web,
    });
    const { app } = await buildPortal(config);
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    for (const url of ['/no-such-page', '/no-such-page/at-all', '/efile/x', '/model-zoo/1/2', '/image/x']) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type']).toContain('text/html');
      expect(r.body).toContain('您访问的页面不存在');
      expect(r.body).not.toContain('id="root"');
    }
    for (const url of [
      '/',
      '/efile',
      '/efile?path=%2Fhome',
      '/model-zoo/123',
      '/model-zoo/list/',
      '/image/x/y',
      '/Main-Page',
      '/share/hefei/abc',
      '/404',
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(200);
      expect(r.body).toContain('id="root"');
    }
    // curl's `*/*`, no Accept at all and a monitor's HEAD get a page the app has, not the API's 404; an address it
    // does not have stays 404 for them, as the envelope, and so does a client that asks for JSON alone.
    for (const headers of [{ accept: '*/*' }, {}, { accept: 'text/*' }]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const r = await app.inject({ method, url: '/', headers });
        expect(r.statusCode, `${method} / ${JSON.stringify(headers)}`).toBe(200);
        expect(r.headers['content-type']).toContain('text/html');
        if (method === 'GET') expect(r.body).toContain('id="root"');
      }
      const other = await app.inject({ method: 'GET', url: '/no-such-page', headers });
      expect(other.statusCode).toBe(404);
      expect(other.json()).toMatchObject({ code: '404' });
    }
    const page = await app.inject({ method: 'GET', url: '/efile', headers: { accept: '*/*' } });
    expect(page.statusCode).toBe(200);
    const json = await app.inject({ method: 'GET', url: '/efile', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ code: '404' });
    // API callers still get the envelope.
    const api = await app.inject({
      method: 'GET',
      url: '/no-such-page',
      headers: { accept: 'application/json' },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: '404' });
    await app.close();
  });
});

describe("the web app's files", () => {
  const tmp = makeTempDir();
  afterAll(() => tmp.cleanup());

  it('are served compressed where the build left a .br or .gz beside them, to a browser that takes it', async () => {
    const web = path.join(tmp.dir, 'web');
    fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<html><div id="root"></div></html>');
    const js = Buffer.from('export const greeting = "你好";\n'.repeat(200));
    fs.writeFileSync(path.join(web, 'assets', 'app-1a2b.js'), js);
    fs.writeFileSync(path.join(web, 'assets', 'app-1a2b.js.br'), zlib.brotliCompressSync(js));
    fs.writeFileSync(path.join(web, 'assets', 'app-1a2b.js.gz'), zlib.gzipSync(js));
    // One without siblings (as the build leaves a file that does not shrink): always as it is.
    fs.writeFileSync(path.join(web, 'assets', 'tiny-3c4d.js'), 'export {};\n');
    const { app } = await buildPortal(
      readPortalConfig({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEB_DIST: web }),
    );
    const get = (url: string, encoding?: string) =>
      app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

    const br = await get('/assets/app-1a2b.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(js)).toBe(true);

    const gz = await get('/assets/app-1a2b.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(gz.rawPayload).equals(js)).toBe(true);

    for (const plain of [await get('/assets/app-1a2b.js'), await get('/assets/app-1a2b.js', 'identity')]) {
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(js)).toBe(true);
    }
    const tiny = await get('/assets/tiny-3c4d.js', 'br');
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
    await app.close();
  });
});
