import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError, catalogApi, toSearchParams } from './index';

/** What the tiny server saw of the last request, so tests can check what the client sent. */
let last: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string } | null = null;
let server: http.Server;
let baseUrl = '';

function send(res: http.ServerResponse, status: number, body: unknown, type = 'application/json') {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      last = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      const url = new URL(req.url ?? '/', 'http://x');
      switch (url.pathname) {
        case '/ok':
          return send(res, 200, { code: '0', msg: 'success', data: { hello: 'world' } });
        case '/api-error':
          return send(res, 200, { code: '1020', msg: 'File does not exist', data: null });
        case '/unauthorized':
          return send(res, 401, { code: '401', msg: 'Not logged in', data: null });
        case '/html-500':
          return send(res, 500, '<html>boom</html>', 'text/html');
        case '/not-json':
          return send(res, 200, 'plain', 'text/plain');
        case '/slow':
          return void setTimeout(() => send(res, 200, { code: '0', msg: '', data: 1 }), 2_000);
        case '/image-center/image/list':
          return send(res, 200, {
            code: '0',
            msg: 'success',
            data: { list: [], total: 0, pageNum: 1, pageSize: 20 },
          });
        default:
          return send(res, 404, { code: '404', msg: 'The page or interface does not exist!', data: null });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('ApiClient', () => {
  it('returns the data of a code "0" envelope', async () => {
    const client = new ApiClient({ baseUrl });
    await expect(client.get('/ok')).resolves.toEqual({ hello: 'world' });
  });

  it('sends arrays as repeated query parameters and leaves out empty values', async () => {
    const client = new ApiClient({ baseUrl });
    await client.get('/ok', { labels: ['a b', 'c'], n: 2, none: undefined, nil: null });
    expect(last?.url).toBe('/ok?labels=a+b&labels=c&n=2');
    expect(toSearchParams({ x: [1, true] }).toString()).toBe('x=1&x=true');
  });

  it('sends JSON and form bodies with their content types', async () => {
    const client = new ApiClient({ baseUrl });
    await client.post('/ok', { json: { keyword: '模型', labels: ['x'] } });
    expect(last?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(last?.body ?? '')).toEqual({ keyword: '模型', labels: ['x'] });

    await client.post('/ok', { form: { path: '/home/a', paths: ['1', '2'] } });
    expect(last?.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(last?.body).toBe('path=%2Fhome%2Fa&paths=1&paths=2');
  });

  it('adds the headers of the hook and of the call', async () => {
    let n = 0;
    const client = new ApiClient({ baseUrl, headers: async () => ({ token: `t${++n}` }) });
    await client.get('/ok', undefined, { headers: { 'x-extra': 'yes' } });
    expect(last?.headers.token).toBe('t1');
    expect(last?.headers['x-extra']).toBe('yes');
    await client.get('/ok');
    expect(last?.headers.token).toBe('t2');
  });

  it('throws kind "api" with the code and message for a code other than "0"', async () => {
    const e = await caught(new ApiClient({ baseUrl }).get('/api-error'));
    expect(e).toMatchObject({ kind: 'api', code: '1020', msg: 'File does not exist', status: 200 });
  });

  it('calls the 401 hook and rejects with the server message', async () => {
    const onUnauthorized = vi.fn();
    const e = await caught(new ApiClient({ baseUrl, onUnauthorized }).get('/unauthorized'));
    expect(e).toMatchObject({ kind: 'api', code: '401', status: 401, msg: 'Not logged in' });
    expect(onUnauthorized).toHaveBeenCalledWith(e);
  });

  it('keeps the envelope of a 404 and reports a bare status as kind "http"', async () => {
    const client = new ApiClient({ baseUrl });
    expect(await caught(client.get('/missing'))).toMatchObject({ kind: 'api', code: '404', status: 404 });
    expect(await caught(client.get('/html-500'))).toMatchObject({ kind: 'http', code: '500', status: 500 });
    expect(await caught(client.get('/not-json'))).toMatchObject({ kind: 'http', status: 200 });
  });

  it('times out with kind "timeout"', async () => {
    const e = await caught(new ApiClient({ baseUrl, timeoutMs: 100 }).get('/slow'));
    expect(e).toMatchObject({ kind: 'timeout', status: 0 });
  });

  it('reports an aborted call as kind "cancelled"', async () => {
    const ac = new AbortController();
    const p = new ApiClient({ baseUrl }).get('/slow', undefined, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    expect(await caught(p)).toMatchObject({ kind: 'cancelled' });

    const already = new AbortController();
    already.abort();
    expect(
      await caught(new ApiClient({ baseUrl }).get('/ok', undefined, { signal: already.signal })),
    ).toMatchObject({
      kind: 'cancelled',
    });
  });

  it('reports a refused connection as kind "network"', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const e = await caught(new ApiClient({ baseUrl: `http://127.0.0.1:${port}` }).get('/ok'));
    expect(e).toMatchObject({ kind: 'network', status: 0 });
  });

  it('settles success and every kind of failure with call(), as request() would have resolved or thrown', async () => {
    const onUnauthorized = vi.fn();
    const client = new ApiClient({ baseUrl, onUnauthorized, timeoutMs: 100 });
    expect(await client.call<{ hello: string }>('/ok')).toEqual({
      ok: true,
      status: 200,
      code: '0',
      msg: 'success',
      data: { hello: 'world' },
    });
    // An envelope refusal keeps the server's status, code, msg and data.
    expect(await client.call('/api-error')).toMatchObject({
      ok: false,
      status: 200,
      code: '1020',
      msg: 'File does not exist',
      data: null,
    });
    const unauthorized = await client.call('/unauthorized');
    expect(unauthorized).toMatchObject({ ok: false, status: 401, code: '401' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    // Without an envelope the bare status is the code; without an answer the status is 0.
    expect(await client.call('/html-500')).toMatchObject({ ok: false, status: 500, code: '500' });
    const slow = await client.call('/slow');
    expect(slow).toMatchObject({ ok: false, status: 0, code: 'TIMEOUT' });
    // The error is the one request() throws, for callers that rethrow it.
    if (slow.ok) throw new Error('expected a failure');
    expect(slow.error).toBeInstanceOf(ApiError);
    expect(slow.error.kind).toBe('timeout');
    expect(await caught(client.request('/api-error'))).toMatchObject({ code: '1020', status: 200 });
  });

  it('builds URLs for links', () => {
    expect(new ApiClient({ baseUrl: 'http://h' }).url('/a', { p: ['1', '2'] })).toBe('http://h/a?p=1&p=2');
  });
});

describe('catalogApi', () => {
  it('posts the list body as JSON to the spec path', async () => {
    const api = catalogApi(new ApiClient({ baseUrl }));
    const page = await api.images.list({ keyword: 'PyTorch', labels: ['cuda'], pageNum: 1, pageSize: 20 });
    expect(page.total).toBe(0);
    expect(last?.method).toBe('POST');
    expect(last?.url).toBe('/image-center/image/list');
    expect(JSON.parse(last?.body ?? '')).toMatchObject({ keyword: 'PyTorch', labels: ['cuda'] });
  });
});
