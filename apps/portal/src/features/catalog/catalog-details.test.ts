import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets } from '@hpc/server-kit/testing';
import { FIXTURE, T0, startHarness, type Harness } from './catalog.test-fixture';

/** Ids of the fixture by English name. */
const idOf = (h: Harness, nameEn: string) => h.ids[FIXTURE.items.findIndex((i) => i.name_en === nameEn)]!;

describe.each(testDbTargets())('catalogue details and download counts ($name)', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(target);
  });
  afterAll(async () => h?.close());

  const get = async (url: string) => {
    const res = await h.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers a model and an application by id', async () => {
    const model = await get(`/model-zoo/model/${idOf(h, 'Qwen Chat')}`);
    expect(model.status).toBe(200);
    expect(model.body.data).toMatchObject({ nameEn: 'Qwen Chat', time: T0 + 5000, downloadCount: 10 });
    const app = await get(`/app-center/app/${idOf(h, 'JupyterLab')}`);
    expect(app.body.data).toMatchObject({ nameEn: 'JupyterLab', filePath: 'markdown/apps/jupyterlab.md' });
  });

  it("answers an application's ready job on its detail only, and none for one without or with a broken one", async () => {
    const job = {
      script: '#!/bin/bash\nsrun lmp -in in.lj\n',
      jobName: 'lammps-lj',
      nodes: 1,
      tasks: 8,
      timeLimitMinutes: 60,
    };
    const app = (name_en: string, job_template: string | null) => ({
      ...FIXTURE.items.find((i) => i.name_en === 'JupyterLab')!,
      name: name_en,
      name_en,
      desc_file_path: null,
      job_template,
    });
    const [withJob, broken, badShape] = await h.repo.insertBundle({
      groups: [],
      labels: [],
      categories: [],
      items: [
        app('Batch LAMMPS', JSON.stringify(job)),
        app('Broken template', '{"script":'),
        // Valid JSON, not a template: a negative node count, no script.
        app('Odd template', JSON.stringify({ nodes: -1 })),
      ],
    });
    const detail = await get(`/app-center/app/${withJob}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ nameEn: 'Batch LAMMPS', jobTemplate: job });
    expect((await get(`/app-center/app/${idOf(h, 'JupyterLab')}`)).body.data.jobTemplate).toBeNull();
    for (const id of [broken, badShape]) {
      const res = await get(`/app-center/app/${id}`);
      expect([res.status, res.body.data.jobTemplate]).toEqual([200, null]);
    }
    // The lists stay small: no script in a card.
    await new Promise((r) => setTimeout(r, 1100));
    const list = await h.app.inject({
      method: 'POST',
      url: '/app-center/app/list',
      payload: { keyword: 'lammps' },
    });
    const cards = list.json<{ data: { list: Array<Record<string, unknown>> } }>().data.list;
    expect(cards.map((c) => c.nameEn)).toEqual(['Batch LAMMPS']);
    expect(cards[0]).not.toHaveProperty('jobTemplate');
  });

  it('answers 404 for unknown ids and ids of another catalogue, 400 for a malformed id', async () => {
    expect((await get('/model-zoo/model/999999')).body.code).toBe('404');
    expect((await get('/model-zoo/model/999999')).status).toBe(404);
    // An image's id is not a model.
    expect((await get(`/model-zoo/model/${idOf(h, 'GROMACS')}`)).status).toBe(404);
    expect((await get(`/app-center/app/${idOf(h, 'Qwen Chat')}`)).status).toBe(404);
    const bad = await get('/model-zoo/model/abc');
    expect([bad.status, bad.body.code]).toEqual([400, '1004']);
    expect((await get('/model-zoo/model/99999999999')).status).toBe(400);
  });

  it('answers an image by accelerator type and image name', async () => {
    const ok = await get(
      '/image-center/image/detail?acceleratorType=GPU&imageName=ai%2Fpytorch%3A2.4.0-cuda12.4',
    );
    expect(ok.body.data).toMatchObject({ nameEn: 'PyTorch', acceleratorType: 'GPU' });
    // Same name, other accelerator: not found.
    const other = await get(
      '/image-center/image/detail?acceleratorType=DCU&imageName=ai%2Fpytorch%3A2.4.0-cuda12.4',
    );
    expect([other.status, other.body.code]).toEqual([404, '404']);
    const missing = await get('/image-center/image/detail?acceleratorType=GPU');
    expect([missing.status, missing.body.code]).toEqual([400, '1003']);
  });

  it('finds where an image description is, by id or by creation time', async () => {
    const byTime = await get(`/image-center/image/desc/path?createTime=${T0 + 100}`);
    expect(byTime.body.data).toEqual({
      id: idOf(h, 'PyTorch'),
      acceleratorType: 'GPU',
      imageName: 'ai/pytorch:2.4.0-cuda12.4',
      descFilePath: 'markdown/images/pytorch.md',
    });
    const byId = await get(`/image-center/image/desc/path?id=${idOf(h, 'GROMACS')}`);
    expect(byId.body.data).toMatchObject({ imageName: 'hpc/gromacs:2024.3', descFilePath: null });
    const neither = await get('/image-center/image/desc/path');
    expect([neither.status, neither.body.code]).toEqual([400, '1003']);
    expect((await get('/image-center/image/desc/path?createTime=1')).status).toBe(404);
    // A model id is not an image.
    expect((await get(`/image-center/image/desc/path?id=${idOf(h, 'Qwen Chat')}`)).status).toBe(404);
  });

  it('counts downloads once per downloader a day, persists them and re-sorts by downloads at once', async () => {
    const qwen = idOf(h, 'Qwen Chat');
    const count = (remoteAddress: string) =>
      h.app.inject({ method: 'POST', url: `/model-zoo/model/count/${qwen}`, remoteAddress });
    const first = await count('10.0.0.1');
    expect(first.json()).toEqual({ code: '0', msg: 'success', data: { downloadCount: 11 } });
    // The spec's client may post a form; any content is accepted and ignored.
    const form = await h.app.inject({
      method: 'POST',
      url: `/model-zoo/model/count/${qwen}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
      remoteAddress: '10.0.0.2',
    });
    expect(form.json().data.downloadCount).toBe(12);
    const stored = await h.repo.findById('model', qwen);
    expect(Number(stored!.download_count)).toBe(12);
    // The same downloader again, even 20 times at once, is not counted again (a loop pushed any model up).
    const again = await Promise.all(Array.from({ length: 20 }, () => count('10.0.0.1')));
    expect(again.map((r) => r.json<{ data: { downloadCount: number } }>().data.downloadCount)).toEqual(
      Array(20).fill(12),
    );
    // Push it past ResNet-50 (50) and check the downloads order follows without waiting for a version check.
    for (let i = 0; i < 40; i++) await count(`10.0.1.${i}`);
    const list = await h.app.inject({
      method: 'POST',
      url: '/model-zoo/model/list',
      payload: { sort: 'downloads' },
    });
    expect(
      list
        .json<{ data: { list: Array<{ nameEn: string; downloadCount: number }> } }>()
        .data.list.slice(0, 2)
        .map((m) => [m.nameEn, m.downloadCount]),
    ).toEqual([
      ['Qwen Chat', 52],
      ['ResNet-50', 50],
    ]);
    expect((await get(`/model-zoo/model/${qwen}`)).body.data.downloadCount).toBe(52);
    // Any local account may send from any of loopback's addresses: all of 127.0.0.0/8 is one downloader (found
    // from outside, 2026-12-01: 127.0.10.1-50 counted 50).
    // (Loopback may have counted already in this file: inject's default address is 127.0.0.1.)
    const once = (await count('127.0.10.1')).json<{ data: { downloadCount: number } }>().data.downloadCount;
    expect([52, 53]).toContain(once);
    const local = await Promise.all(Array.from({ length: 20 }, (_, i) => count(`127.0.10.${i + 2}`)));
    expect(local.map((r) => r.json<{ data: { downloadCount: number } }>().data.downloadCount)).toEqual(
      Array(20).fill(once),
    );
  });

  it('refuses counting an unknown or malformed id and changes nothing', async () => {
    const resnet = idOf(h, 'ResNet-50');
    const before = Number((await h.repo.findById('model', resnet))!.download_count);
    const unknown = await h.app.inject({ method: 'POST', url: '/model-zoo/model/count/999999' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, '404']);
    // Nothing kept for an id that is no model (a day of memory per made-up id, anyone could ask).
    expect(await h.kv.get('model-count:999999:a127.0.0.0/8')).toBeNull();
    const image = await h.app.inject({ method: 'POST', url: `/model-zoo/model/count/${idOf(h, 'PyTorch')}` });
    expect(image.statusCode).toBe(404);
    const bad = await h.app.inject({ method: 'POST', url: '/model-zoo/model/count/x' });
    expect([bad.statusCode, bad.json().code]).toEqual([400, '1004']);
    expect(Number((await h.repo.findById('model', resnet))!.download_count)).toBe(before);
    expect(Number((await h.repo.findById('image', idOf(h, 'PyTorch')))!.download_count)).toBe(0);
  });

  it('sees items written by another instance after the version check (at most a second later)', async () => {
    // Prime the index, then write through another repository as a second portal instance would.
    await h.app.inject({ method: 'POST', url: '/model-zoo/model/list', payload: { keyword: 'newcomer' } });
    await h.repo.insertBundle({
      groups: [],
      labels: [],
      categories: [],
      items: [
        {
          ...FIXTURE.items[0]!,
          name: '新模型',
          name_en: 'Newcomer',
          description: '',
          description_en: '',
          created_at: T0 + 9000,
          labels: ['pytorch'],
        },
      ],
    });
    await new Promise((r) => setTimeout(r, 1100));
    const res = await h.app.inject({
      method: 'POST',
      url: '/model-zoo/model/list',
      payload: { keyword: 'newcomer' },
    });
    expect(res.json<{ data: { list: Array<{ nameEn: string }> } }>().data.list.map((m) => m.nameEn)).toEqual([
      'Newcomer',
    ]);
  });
});
