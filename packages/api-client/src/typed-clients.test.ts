import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, codeOfAnswer, efileApi, identityApi, readEnvelope, shareApi } from './index';

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
