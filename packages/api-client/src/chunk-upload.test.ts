import { describe, expect, it } from 'vitest';
import { chunkFields } from '@hpc/contracts';
import { ApiClient } from './client';
import { chunkUploadApi } from './chunk-upload';
import { ApiError } from './api-error';

/** A client whose fetch answers with `answer` and records what it was asked. */
function fake(answer: () => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  const client = new ApiClient({
    baseUrl: 'http://efile',
    timeoutMs: 0,
    fetch: async (url, init = {}) => {
      calls.push({ url: url instanceof Request ? url.url : url.toString(), init });
      return answer();
    },
  });
  return { api: chunkUploadApi(client), calls };
}
const fields = chunkFields({ size: 10, chunkSize: 4, relativePath: 'd/a.txt', path: '/home' }, 2);
const envelope = (code: string, data: unknown, status = 200) =>
  new Response(JSON.stringify({ code, msg: code === '0' ? 'ok' : 'no', data }), { status });

describe('chunk upload calls', () => {
  it('asks with the fields as query and reads 200 as stored, 204 as missing', async () => {
    const stored = fake(() => envelope('0', { stored: 1 }));
    expect(await stored.api.test(fields, { headers: { token: 't' } })).toBe(true);
    const url = new URL(stored.calls[0]!.url);
    expect(url.pathname).toBe('/chunkUpload.action');
    expect(Object.fromEntries(url.searchParams)).toEqual(fields);
    expect((stored.calls[0]!.init.headers as Record<string, string>).token).toBe('t');
    expect(await fake(() => new Response(null, { status: 204 })).api.test(fields)).toBe(false);
  });

  it('posts the fields then the file part, and returns whether the upload is complete', async () => {
    const { api, calls } = fake(() =>
      envelope('0', { stored: 3, totalChunks: 3, complete: true, path: '/home/d/a.txt' }),
    );
    expect((await api.send(fields, new Blob(['abcdef']))).complete).toBe(true);
    const body = calls[0]!.init.body as FormData;
    expect([...body.keys()]).toEqual([...Object.keys(fields), 'file']);
    expect(await (body.get('file') as Blob).text()).toBe('abcdef');
  });

  it('fails with the envelope code, or the bare status without one', async () => {
    const refused = fake(() => envelope('1021', null, 415));
    await expect(refused.api.send(fields, new Blob(['x']))).rejects.toMatchObject({
      code: '1021',
      status: 415,
    });
    await expect(refused.api.test(fields)).rejects.toMatchObject({ code: '1021' });
    const proxy = fake(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(proxy.api.send(fields, new Blob(['x']))).rejects.toBeInstanceOf(ApiError);
    await expect(proxy.api.send(fields, new Blob(['x']))).rejects.toMatchObject({
      code: '502',
      kind: 'http',
    });
  });

  it('counts a 2xx without an envelope as stored but not complete (simple-uploader)', async () => {
    const { api } = fake(() => new Response('', { status: 200 }));
    expect(await api.send(fields, new Blob(['x']))).toEqual({ complete: false });
  });
});
