import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets } from '@hpc/server-kit/testing';
import { injectAs, makeHarness, type Harness } from '../../efile.test-fixture';
import { postChunk, type ChunkTarget } from '../upload/chunk-client.test-fixture';
import { openAllowance } from './open-allowance';

const HOME = '/public/home/demo';
const RANGE = 64 * 1024;
const MAX = 4;

describe.each(testDbTargets())('open uploads per user, at most EFILE_MAX_OPEN_UPLOADS ($name)', (db) => {
  let h: Harness;
  let token: string;
  let base: string;
  const partials = () => fs.readdirSync(h.host(HOME)).filter((n) => n.endsWith('.efile-part'));
  const begin = (tok: string, name: string, home = HOME) =>
    injectAs(h, tok, 'POST', '/fastrans/begin.action', {
      files: [{ path: `${home}/${name}`, size: 3 * RANGE, identifier: name }],
      rangeSize: RANGE,
    });
  const chunked = (name: string): ChunkTarget => ({
    base,
    token,
    path: HOME,
    relativePath: name,
    data: crypto.randomBytes(3 * RANGE),
    chunkSize: RANGE,
  });

  beforeAll(async () => {
    h = await makeHarness({ db, env: { EFILE_MAX_OPEN_UPLOADS: String(MAX) } });
    token = await h.token();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => h.close());

  it('a parallel burst of begins opens exactly the allowance; the rest are refused (429) and leave nothing', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => begin(token, `f${i}.bin`)));
    const files = answers.map(
      (r) => r.json<{ data: { files: { id: string; code?: string }[] } }>().data.files[0]!,
    );
    const opened = files.filter((f) => f.code === undefined);
    expect(opened).toHaveLength(MAX);
    expect(files.filter((f) => f.code === '429')).toHaveLength(12 - MAX);
    expect(partials()).toHaveLength(MAX);

    // The browser's chunk upload counts in the same allowance: refused too, in the request's language, no partial.
    const refused = await postChunk(chunked('c.bin'), 1);
    // 415: what the uploader takes for a failure to report, not to retry (upload.routes.ts).
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ code: '429', data: { max: MAX } });
    const zh = await h.app.inject({
      method: 'POST',
      url: '/fastrans/begin.action',
      headers: { token, 'accept-language': 'zh-CN' },
      payload: { files: [{ path: `${HOME}/z.bin`, size: 3 * RANGE, identifier: 'z' }], rangeSize: RANGE },
    });
    expect(zh.json().data.files[0].msg).toContain('进行中的上传过多');
    expect(partials()).toHaveLength(MAX);

    // A session begun again (a restarted client) is no new one: still answered.
    const again = files.findIndex((f) => f.code === undefined);
    expect((await begin(token, `f${again}.bin`)).json().data.files[0]).toMatchObject({
      id: files[again]!.id,
    });
    expect((await begin(token, `f${again}.bin`)).json().data.files[0].code).toBeUndefined();
    // Another user's allowance is their own.
    const other = await h.token({ sub: 'u-other', cun: 'other', home: '/public/home/other' });
    expect((await begin(other, 'o.bin', '/public/home/other')).json().data.files[0].code).toBeUndefined();

    // One cancelled makes room for one more, of either kind.
    const cancel = await injectAs(h, token, 'POST', '/fastrans/cancel.action', { ids: [opened[0]!.id] });
    expect(cancel.json().code).toBe('0');
    expect((await postChunk(chunked('c.bin'), 1)).status).toBe(200);
    expect((await begin(token, 'late.bin')).json().data.files[0].code).toBe('429');
  });
});

describe('openAllowance', () => {
  it("counts from the database once, then what it admitted itself; a user's burst is checked one at a time", async () => {
    let rows = 0;
    let reads = 0;
    const a = openAllowance(async () => {
      reads++;
      return rows;
    }, 3);
    const create = async () => {
      await new Promise((r) => setTimeout(r, 5));
      rows++;
      return true;
    };
    const made = await Promise.all(Array.from({ length: 8 }, () => a.admit('u1', create)));
    expect(made.filter(Boolean)).toHaveLength(3);
    expect(rows).toBe(3);
    // One read for the first three, then one per refusal at the limit (the rows may have gone meanwhile).
    expect(reads).toBe(6);
    // Rows removed elsewhere: read again at the limit, and room is found.
    rows = 1;
    expect(await a.admit('u1', create)).toBe(true);
    expect(await a.admit('u2', create)).toBe(true);
  });

  it('a failed create admits nothing and does not block the next', async () => {
    let rows = 0;
    const a = openAllowance(async () => rows, 1);
    await expect(a.admit('u', () => Promise.reject(new Error('disk')))).rejects.toThrow('disk');
    expect(await a.admit('u', async () => (rows++, 'ok'))).toBe('ok');
    expect(await a.admit('u', async () => (rows++, 'no'))).toBeNull();
  });
});
