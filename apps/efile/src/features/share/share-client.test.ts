import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, efileApi, shareApi } from '@hpc/api-client';
import { ShareRoutes } from '@hpc/contracts';
import { makeHarness, type Harness } from '../../efile.test-fixture';

/**
 * The share calls end to end through the one typed client, over HTTP: efile registers them from contracts'
 * `ShareRoutes` (`addRoute`) and `@hpc/api-client` calls them from the same declarations (issue 23 §3), so this
 * checks that both sides agree on method, path, query, form body and answer.
 */
describe('shares through @hpc/api-client', () => {
  let h: Harness;
  let owner: ReturnType<typeof efileApi>;
  let recipient: ReturnType<typeof shareApi>;
  let anonymous: ApiClient;

  beforeAll(async () => {
    h = await makeHarness();
    fs.mkdirSync(`${h.home}/results/sub`, { recursive: true });
    fs.writeFileSync(`${h.home}/results/sub/r.txt`, 'result');
    const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await h.token();
    owner = efileApi(new ApiClient({ baseUrl: base, headers: () => ({ token }) }), 'c1');
    anonymous = new ApiClient({ baseUrl: base });
    recipient = shareApi(anonymous);
  });
  afterAll(() => h.close());

  it('opens, lists, verifies, browses, downloads and closes a share', async () => {
    const share = await owner.shareOpen({
      path: '/public/home/demo/results',
      validDays: '3',
      password: 'abcd',
    });
    expect(share).toMatchObject({ name: 'results', isDir: true, password: 'abcd', status: 'valid' });
    expect((await owner.shareList(1, 20)).list.map((s) => s.shareId)).toEqual([share.shareId]);
    expect(await owner.isIncludeShareFile(['/public/home/demo/results'])).toMatchObject({ shared: true });

    expect(await recipient.info(share.shareId)).toMatchObject({ shareId: share.shareId, isDir: true });
    const { shareToken } = await recipient.verify(share.shareId, 'abcd');
    const page = await recipient.list({ shareToken, path: '/sub', pageNum: 1, pageSize: 20 });
    expect(page.list.map((e) => e.path)).toEqual(['/sub/r.txt']);
    const file = await fetch(recipient.downloadUrl(shareToken, '/sub/r.txt'));
    expect(await file.text()).toBe('result');

    expect(await owner.shareClose({ shareId: share.shareId })).toEqual({ closed: 1 });
    const closed = await anonymous.call(ShareRoutes.publicInfo, { query: { shareId: share.shareId } });
    expect(closed.ok).toBe(false);
    expect(closed.code).toBe('LINK_CLOSED');
  });

  it('settles a wrong extraction code with its spec code through call()', async () => {
    const share = await owner.shareOpen({
      path: '/public/home/demo/results',
      validDays: '1',
      password: 'right',
    });
    const r = await anonymous.call(ShareRoutes.publicVerify, {
      body: { shareId: share.shareId, password: 'wrong' },
    });
    expect(r).toMatchObject({ ok: false, code: '1026' });
  });
});
