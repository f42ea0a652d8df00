import { describe, expect, it } from 'vitest';
import {
  ApiClient,
  ApiError,
  codeOfAnswer,
  efileApi,
  fastransApi,
  fastransWebApi,
  identityApi,
  readEnvelope,
  shareApi,
} from './index';

/** A client whose `fetch` records the request and answers the given envelope. */
function recording(data: unknown = null) {
  const calls: { url: string; method: string; headers: Record<string, string>; body: string }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: typeof init.body === 'string' ? init.body : '',
    });
    return new Response(JSON.stringify({ code: '0', msg: 'success', data }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('readEnvelope / codeOfAnswer', () => {
  it('returns the data of a code "0" answer', () => {
    expect(readEnvelope(200, '{"code":"0","msg":"","data":{"complete":true}}')).toEqual({
      ok: true,
      data: { complete: true },
    });
  });

  it('turns a failure envelope into the same ApiError the client throws', () => {
    const r = readEnvelope(404, '{"code":"1020","msg":"File does not exist","data":null}', 'en-US');
    expect(r.ok).toBe(false);
    const error = (r as { error: ApiError }).error;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'api', code: '1020', status: 404, lang: 'en-US' });
  });

  it('reports a body that is not an envelope by its status', () => {
    expect(readEnvelope(502, '<html>bad gateway</html>')).toMatchObject({
      ok: false,
      error: { kind: 'http', code: '502' },
    });
    expect(codeOfAnswer(500, '{"code":"1501","msg":"full"}')).toBe('1501');
    expect(codeOfAnswer(415, 'nope')).toBe('415');
    expect(codeOfAnswer(0, '')).toBe('0');
  });
});

describe('efileApi', () => {
  it('sends the listing query to /list.action with the client headers', async () => {
    const { calls, fetch } = recording({ path: '/home/a', list: [], total: 0, pageNum: 2, pageSize: 50 });
    const client = new ApiClient({ baseUrl: 'http://efile', fetch, headers: () => ({ token: 'tk' }) });
    const page = await efileApi(client, 'c1').list({
      path: '/home/a',
      pageNum: 2,
      pageSize: 50,
      sort: 'mtime',
      order: 'desc',
    });
    expect(page.pageNum).toBe(2);
    expect(calls[0]!.url).toBe(
      'http://efile/list.action?path=%2Fhome%2Fa&pageNum=2&pageSize=50&sort=mtime&order=desc',
    );
    expect(calls[0]!.headers.token).toBe('tk');
  });

  it('posts copy/move as a form with the cluster id and the overwrite choice', async () => {
    const { calls, fetch } = recording({ operationId: 'op1', clusterId: 'c1' });
    const api = efileApi(new ApiClient({ baseUrl: '', fetch }), 'c1');
    await expect(api.copyMove('move', ['/a', '/b'], '/t', true)).resolves.toEqual({
      operationId: 'op1',
      clusterId: 'c1',
    });
    expect(calls[0]).toMatchObject({ url: '/move.action', method: 'POST' });
    expect(calls[0]!.body).toBe('paths=%2Fa&paths=%2Fb&targetPath=%2Ft&cover=true&clusterId=c1');
  });

  it('puts a one-URL ticket on download addresses, never the token', async () => {
    const { calls, fetch } = recording({ ticket: 'tkt', expiresAt: 1 });
    const client = new ApiClient({ baseUrl: 'http://efile', fetch, headers: () => ({ token: 'secret' }) });
    const url = await efileApi(client, 'c1').downloadUrl('/home/a/x.txt');
    expect(calls[0]!.url).toBe('http://efile/browserTicket.action');
    expect(calls[0]!.body).toBe('action=download&path=%2Fhome%2Fa%2Fx.txt');
    expect(url).toBe('http://efile/download.action?path=%2Fhome%2Fa%2Fx.txt&ticket=tkt');
    expect(url).not.toContain('secret');
  });
});

describe('shareApi and identityApi', () => {
  it('verifies an extraction code with a form POST', async () => {
    const { calls, fetch } = recording({ shareToken: 's', expiresAt: 1, name: 'x', isDir: false });
    await shareApi(new ApiClient({ baseUrl: '/efile/c1', fetch })).verify('id1', 'abc123');
    expect(calls[0]).toMatchObject({ url: '/efile/c1/share/public/verify.action', method: 'POST' });
    expect(calls[0]!.body).toBe('shareId=id1&password=abc123');
  });

  it('refreshes tokens with POST /api/auth/refresh', async () => {
    const { calls, fetch } = recording({ tokenList: [] });
    await expect(identityApi(new ApiClient({ fetch })).auth.refresh()).resolves.toEqual({ tokenList: [] });
    expect(calls[0]).toMatchObject({ url: '/api/auth/refresh', method: 'POST' });
  });
});

describe('fastransApi / fastransWebApi', () => {
  it('sends the JSON calls to /fastrans/*.action and the bytes of a range as they are', async () => {
    const r = recording({ files: [] });
    const api = fastransApi(
      new ApiClient({ baseUrl: 'http://e', fetch: r.fetch, headers: () => ({ token: 't' }) }),
    );
    await api.begin([{ path: '/h/a b', size: 3, identifier: 'x' }], 65536, false);
    expect(r.calls[0]).toMatchObject({ url: 'http://e/fastrans/begin.action', method: 'POST' });
    expect(r.calls[0]!.headers).toMatchObject({ token: 't', 'content-type': 'application/json' });
    expect(JSON.parse(r.calls[0]!.body)).toEqual({
      files: [{ path: '/h/a b', size: 3, identifier: 'x' }],
      rangeSize: 65536,
      overwrite: false,
    });
    await api.range('ab', 7, new Uint8Array([1, 2]));
    expect(r.calls[1]).toMatchObject({ url: 'http://e/fastrans/range.action?id=ab&n=7', method: 'PUT' });
    expect(r.calls[1]!.headers['content-type']).toBe('application/octet-stream');
    await api.batch('/h/d e', new Uint8Array(1), true);
    expect(r.calls[2]!.url).toBe('http://e/fastrans/batch.action?path=%2Fh%2Fd+e&overwrite=true');
  });

  it('hands the byte answers back raw, with the Range header of the wanted bytes', async () => {
    const r = recording();
    const api = fastransApi(new ApiClient({ baseUrl: 'http://e', fetch: r.fetch }));
    const res = await api.read('/h/f', 10, 20);
    expect(res).toBeInstanceOf(Response);
    expect(r.calls[0]!.url).toBe('http://e/fastrans/read.action?path=%2Fh%2Ff');
    expect(r.calls[0]!.headers.range).toBe('bytes=10-19');
    expect(r.calls[0]!.headers['want-content-digest']).toBe('sha-256');
  });

  it('numbers the web server calls and carries the version and the web token', async () => {
    const r = recording(null);
    const web = fastransWebApi(new ApiClient({ baseUrl: 'http://p', fetch: r.fetch }), '1.2.3');
    await web.login('uk');
    await web.heartbeat('w t');
    expect(r.calls.map((c): unknown[] => [c.url, JSON.parse(c.body)])).toEqual([
      ['http://p/fastrans/api', { id: 1, version: '1.2.3', module: 'user', action: 'login', UK: 'uk' }],
      ['http://p/fastrans/api?token=w+t', { id: 2, version: '1.2.3', module: 'client', action: 'heartbeat' }],
    ]);
  });

  it('throws a refusal of the web server as the ApiError of its envelope', async () => {
    const fetch = (async () =>
      new Response(JSON.stringify({ id: 1, code: '1003', msg: 'Not logged in', data: null }), {
        status: 200,
      })) as unknown as typeof globalThis.fetch;
    const web = fastransWebApi(new ApiClient({ baseUrl: 'http://p', fetch }), '1.0.0');
    await expect(web.servers('t')).rejects.toMatchObject({ kind: 'api', code: '1003', msg: 'Not logged in' });
  });
});
