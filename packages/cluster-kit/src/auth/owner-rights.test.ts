import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_RIGHTS_PATH } from '@hpc/contracts';
import { noOwnerRights, portalOwnerRights } from './owner-rights';

/** The scaled-out lookup against a stand-in portal: the secret is sent, bad or missing answers fail closed. */
describe('portalOwnerRights', () => {
  const seen: { url: string; auth: string | undefined }[] = [];
  let answer: (res: http.ServerResponse) => void;
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization });
      answer(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const json =
    (body: unknown, status = 200) =>
    (res: http.ServerResponse) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it('asks with the secret and returns the rights or null', async () => {
    const rights = { cun: 'demo', home: '/public/home/demo', paths: [], st: 'Normal', exp_acct: null };
    answer = json({ code: '0', msg: 'success', data: rights });
    const lookup = portalOwnerRights(base, 's3', 'c1');
    expect(await lookup('42')).toEqual(rights);
    expect(seen.at(-1)).toEqual({ url: `${OWNER_RIGHTS_PATH}?clusterId=c1&sub=42`, auth: 'Bearer s3' });
    answer = json({ code: '0', msg: 'success', data: null });
    expect(await lookup('42')).toBeNull();
  });

  it('fails closed with 1404 on an error status, a malformed answer, no portal, or no secret', async () => {
    const lookup = portalOwnerRights(base, 's3', 'c1');
    answer = json({ code: '403', msg: 'Forbidden', data: null }, 403);
    await expect(lookup('1')).rejects.toMatchObject({ code: '1404' });
    answer = json({ code: '0', msg: 'success', data: { cun: 'demo' } });
    await expect(lookup('1')).rejects.toMatchObject({ code: '1404' });
    await expect(portalOwnerRights('http://127.0.0.1:9', 's3', 'c1')('1')).rejects.toMatchObject({
      code: '1404',
    });
    await expect(noOwnerRights('1')).rejects.toMatchObject({ code: '1404' });
  });
});
