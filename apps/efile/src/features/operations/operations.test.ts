/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return -- inject().json() is untyped in route tests */
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';
import { testDbTargets } from '@hpc/server-kit/testing';

describe.each(testDbTargets())('copy and move operations ($name)', (db) => {
  let h: Harness;
  let token: string;
  const post = (url: string, body: Record<string, string | boolean | string[]>) =>
    h.app.inject({ method: 'POST', url, headers: { token, ...FORM }, payload: form(body) });
  const waitDone = async (operationId: string) => {
    for (let i = 0; i < 400; i++) {
      const p = (
        await h.app.inject({
          method: 'GET',
          url: `/operationProgress.action?operationId=${operationId}`,
          headers: { token },
        })
      ).json().data;
      if (p.status !== 'running') return p;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('operation did not finish');
  };

  beforeAll(async () => {
    h = await makeHarness({ db });
    token = await h.token();
    fs.mkdirSync(h.home + '/src/deep', { recursive: true });
    fs.writeFileSync(h.home + '/src/a.txt', 'aaa');
    fs.writeFileSync(h.home + '/src/deep/b.txt', 'b'.repeat(5000));
    fs.mkdirSync(h.home + '/dst');
  });
  afterAll(() => h.close());

  it('copies in the background with progress, reports conflicts, allows one operation per user', async () => {
    const r = await post('/copy.action', {
      paths: ['/public/home/demo/src'],
      targetPath: '/public/home/demo/dst',
      cover: false,
      clusterId: 'c1',
    });
    expect(r.json()).toMatchObject({ code: '0', data: { clusterId: 'c1' } });
    const p = await waitDone(r.json().data.operationId);
    expect(p).toMatchObject({
      status: 'done',
      filesDone: 2,
      filesTotal: 2,
      bytesDone: 5003,
      bytesTotal: 5003,
    });
    expect(fs.readFileSync(h.home + '/dst/src/deep/b.txt', 'utf8')).toBe('b'.repeat(5000));
    const again = await post('/copy.action', {
      paths: ['/public/home/demo/src'],
      targetPath: '/public/home/demo/dst',
    });
    expect(again.json()).toMatchObject({ code: '1023', data: { conflicts: ['/public/home/demo/dst/src'] } });
    expect(
      (
        await post('/copy.action', {
          paths: ['/public/home/demo/src'],
          targetPath: '/public/home/demo/src/deep',
        })
      ).json().code,
    ).toBe('1507');
    const other = await post('/copy.action', {
      paths: ['/public/home/demo/src'],
      targetPath: '/public/home/other',
    });
    expect(other.json().code).toBe('1030');
  });

  it('refuses a second concurrent operation and cancels without leaving a half copy', async () => {
    fs.mkdirSync(h.home + '/many');
    for (let i = 0; i < 3000; i++) fs.writeFileSync(`${h.home}/many/${i}.txt`, 'x'.repeat(100));
    const r = await post('/copy.action', {
      paths: ['/public/home/demo/many'],
      targetPath: '/public/home/demo/dst',
    });
    const id = r.json().data.operationId;
    const second = await post('/move.action', {
      paths: ['/public/home/demo/src'],
      targetPath: '/public/home/demo/dst',
    });
    expect(second.statusCode).toBe(429);
    expect(second.json().code).toBe('OPERATION_LIMIT');
    expect((await post('/operationCancel.action', { operationId: id, clusterId: 'c1' })).json().code).toBe(
      '0',
    );
    expect((await waitDone(id)).status).toBe('cancelled');
    expect(fs.readdirSync(h.home + '/dst')).toEqual(['src']);
  });

  it('moves by rename, and across file systems by copy then remove', async () => {
    const r = await post('/move.action', {
      paths: ['/public/home/demo/src/a.txt'],
      targetPath: '/public/home/demo/dst',
    });
    expect((await waitDone(r.json().data.operationId)).status).toBe('done');
    expect(fs.existsSync(h.home + '/src/a.txt')).toBe(false);
    expect(fs.readFileSync(h.home + '/dst/a.txt', 'utf8')).toBe('aaa');
    // A tmpfs mounted inside the home is another file system: rename gives EXDEV.
    fs.mkdirSync(h.home + '/mnt');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', h.home + '/mnt']);
    try {
      const m = await post('/move.action', {
        paths: ['/public/home/demo/src/deep'],
        targetPath: '/public/home/demo/mnt',
      });
      expect((await waitDone(m.json().data.operationId)).status).toBe('done');
      expect(fs.readFileSync(h.home + '/mnt/deep/b.txt', 'utf8')).toBe('b'.repeat(5000));
      expect(fs.existsSync(h.home + '/src/deep')).toBe(false);
    } finally {
      execFileSync('umount', [h.home + '/mnt']);
    }
  });
});
