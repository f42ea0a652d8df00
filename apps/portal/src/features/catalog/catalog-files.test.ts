import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets } from '@hpc/server-kit/testing';
import { startHarness, type Harness } from './catalog.test-fixture';

describe.each(testDbTargets())('catalogue files ($name)', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(target);
  });
  afterAll(async () => h?.close());

  const view = async (route: string, param: string, value: string) => {
    const res = await h.app.inject({ method: 'GET', url: route, query: { [param]: value } });
    return { status: res.statusCode, body: res.json() };
  };
  const views: Array<[string, string]> = [
    ['/image-center/image/file/view', 'descFilePath'],
    ['/model-zoo/model/file/view', 'filePath'],
    ['/app-center/app/file/view', 'filePath'],
  ];

  it.each(views)('%s answers the markdown text of a description', async (route, param) => {
    const res = await view(route, param, 'markdown/models/qwen.md');
    expect(res).toEqual({
      status: 200,
      body: { code: '0', msg: 'success', data: '# Qwen\n\n## 快速开始 Quick start\n' },
    });
    // An absolute path inside the storage is accepted as well.
    const abs = await view(route, param, path.join(h.dataDir, 'catalog', 'markdown/apps/jupyterlab.md'));
    expect(abs.body.data).toBe('# JupyterLab\n');
  });

  it.each(views)('%s refuses paths that leave the catalogue storage', async (route, param) => {
    const cases: Array<[string, number, string]> = [
      ['../secret.md', 403, '1030'],
      ['markdown/../../secret.md', 403, '1030'],
      [path.join(h.dataDir, 'secret.md'), 403, '1030'],
      ['/etc/passwd', 403, '1030'],
      // A symlink inside the storage that points outside it.
      ['markdown/escape.md', 403, '1030'],
      ['markdown/models/qwen.md\0.png', 400, '1033'],
      ['markdown/missing.md', 404, '1020'],
      ['markdown', 404, '1020'],
      // Not a markdown file.
      ['images/badge.png', 415, '1506'],
    ];
    for (const [p, status, code] of cases) {
      const res = await view(route, param, p);
      expect([p, res.status, res.body.code]).toEqual([p, status, code]);
    }
  });

  it('needs the path parameter', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/model-zoo/model/file/view' });
    expect([res.statusCode, res.json().code]).toEqual([400, '1003']);
  });

  it('serves icons and images with their type, nosniff, and SVG under a no-script policy', async () => {
    const svg = await h.app.inject({ method: 'GET', url: '/catalog-files/icons/pytorch.svg' });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect(svg.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(svg.body).toContain('<svg');
    const png = await h.app.inject({ method: 'GET', url: '/catalog-files/images/badge.png' });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 4).toString('hex')).toBe('89504e47');
  });

  it('refuses other types, escapes and missing files under /catalog-files', async () => {
    const cases: Array<[string, number, string]> = [
      ['/catalog-files/images/page.html', 415, '1506'],
      ['/catalog-files/markdown/models/qwen.md', 415, '1506'],
      ['/catalog-files/images/escape.svg', 403, '1030'],
      ['/catalog-files/../portal.db', 404, '404'],
      // Encoded slashes reach the route as one segment and are decoded there: still refused.
      ['/catalog-files/images/..%2F..%2F..%2Fsecret.md', 403, '1030'],
      ['/catalog-files/images/%00.png', 400, '1033'],
      ['/catalog-files/images/none.png', 404, '1020'],
    ];
    for (const [url, status, code] of cases) {
      const res = await h.app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.json().code]).toEqual([url, status, code]);
    }
  });
});
