import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets } from '@hpc/server-kit/testing';
import { startHarness, type Harness } from './catalog.test-fixture';

type Card = Record<string, unknown> & { nameEn: string; downloadCount: number; labelList: unknown[] };
interface ListData {
  list: Card[];
  total: number;
  pageNum: number;
  pageSize: number;
}

describe.each(testDbTargets())('catalogue lists ($name)', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(target);
  });
  afterAll(async () => h?.close());

  const post = async <T = ListData>(url: string, payload: unknown) => {
    const res = await h.app.inject({ method: 'POST', url, payload: payload as object });
    return { status: res.statusCode, body: res.json<{ code: string; msg: string; data: T }>() };
  };
  const models = async (body: object) => {
    const { status, body: json } = await post('/model-zoo/model/list', body);
    expect(status).toBe(200);
    expect(json.code).toBe('0');
    return json.data as { list: Array<{ nameEn: string; downloadCount: number }>; total: number };
  };
  const names = async (body: object) => (await models(body)).list.map((m) => m.nameEn);

  it('lists every model newest first by default, with the total and the paging echoed', async () => {
    const res = await post('/model-zoo/model/list', {});
    expect(res.body.data).toMatchObject({ total: 5, pageNum: 1, pageSize: 20 });
    expect(res.body.data.list.map((m) => m.nameEn)).toEqual([
      'Qwen Chat',
      'Llama Chat',
      'bert-base',
      'Alpha params',
      'ResNet-50',
    ]);
    const qwen = res.body.data.list[0];
    expect(qwen).toMatchObject({
      name: '通义千问 对话模型',
      category: 'llm',
      filePath: 'markdown/models/qwen.md',
    });
    expect(qwen!.labelList).toEqual([
      { group: 'framework', value: 'pytorch', label: 'PyTorch', labelEn: 'PyTorch' },
      { group: 'task', value: 'text-generation', label: '文本生成', labelEn: 'Text generation' },
    ]);
  });

  it('answers every page size of spec §9, up to 500 like E-File', async () => {
    for (const pageSize of [10, 20, 50, 100, 500]) {
      const res = await post('/model-zoo/model/list', { pageSize });
      expect([res.status, res.body.code, res.body.data.pageSize]).toEqual([200, '0', pageSize]);
      expect(res.body.data.list).toHaveLength(Math.min(pageSize, res.body.data.total));
    }
    const apps = await post('/app-center/app/list', { pageSize: 500 });
    const images = await post('/image-center/image/list', { pageSize: 500 });
    expect([apps.body.code, images.body.code]).toEqual(['0', '0']);
  });

  it('searches names and descriptions in both languages, case-insensitively', async () => {
    expect(await names({ keyword: '对话' })).toEqual(['Qwen Chat', 'Llama Chat']);
    expect(await names({ keyword: '图像分类' })).toEqual(['ResNet-50']);
    expect(await names({ keyword: 'RESNET' })).toEqual(['ResNet-50']);
    expect(await names({ keyword: 'large language' })).toEqual(['Qwen Chat']);
    expect(await names({ keyword: 'chat 中文' })).toEqual(['Qwen Chat']);
    // Full-width letters are folded too.
    expect(await names({ keyword: 'ＢＥＲＴ' })).toEqual(['bert-base']);
    expect(await names({ keyword: 'no such thing' })).toEqual([]);
  });

  it('requires every selected label, and combines labels with keyword and category', async () => {
    expect(await names({ labels: ['pytorch'] })).toEqual(['Qwen Chat', 'Llama Chat', 'ResNet-50']);
    expect(await names({ labels: ['pytorch', 'text-generation'] })).toEqual(['Qwen Chat', 'Llama Chat']);
    expect(await names({ labels: ['tensorflow', 'image-classification'] })).toEqual([]);
    expect(await names({ labels: ['unknown-label'] })).toEqual([]);
    expect(await names({ labels: ['pytorch', 'text-generation'], keyword: 'llama' })).toEqual(['Llama Chat']);
    expect(await names({ category: 'llm' })).toEqual(['Qwen Chat', 'Llama Chat']);
    expect(await names({ category: 'llm', labels: ['tensorflow'] })).toEqual([]);
  });

  it('sorts by newest, downloads and name', async () => {
    expect(await names({ sort: 'newest' })).toEqual([
      'Qwen Chat',
      'Llama Chat',
      'bert-base',
      'Alpha params',
      'ResNet-50',
    ]);
    expect(await names({ sort: 'downloads' })).toEqual([
      'ResNet-50',
      'Alpha params',
      'bert-base',
      'Llama Chat',
      'Qwen Chat',
    ]);
    expect(await names({ sort: 'name' })).toEqual([
      'Alpha params',
      'bert-base',
      'Llama Chat',
      'Qwen Chat',
      'ResNet-50',
    ]);
  });

  it('pages with a stable total', async () => {
    const p1 = await models({ sort: 'name', pageNum: 1, pageSize: 2 });
    const p3 = await models({ sort: 'name', pageNum: 3, pageSize: 2 });
    const p4 = await models({ sort: 'name', pageNum: 4, pageSize: 2 });
    expect(p1.list.map((m) => m.nameEn)).toEqual(['Alpha params', 'bert-base']);
    expect(p3.list.map((m) => m.nameEn)).toEqual(['ResNet-50']);
    expect(p4.list).toEqual([]);
    expect([p1.total, p3.total, p4.total]).toEqual([5, 5, 5]);
    const filtered = await models({ labels: ['pytorch'], sort: 'downloads', pageNum: 2, pageSize: 2 });
    expect(filtered.list.map((m) => m.nameEn)).toEqual(['Qwen Chat']);
    expect(filtered.total).toBe(3);
  });

  it('filters images by accelerator type, category and label', async () => {
    const images = async (body: object) =>
      (await post('/image-center/image/list', body)).body.data.list.map((i) => i.nameEn);
    expect(await images({})).toEqual(['GROMACS', 'PyTorch DCU', 'PyTorch']);
    expect(await images({ acceleratorType: 'DCU' })).toEqual(['PyTorch DCU']);
    expect(await images({ category: 'md' })).toEqual(['GROMACS']);
    expect(await images({ labels: ['pytorch'], acceleratorType: 'GPU' })).toEqual(['PyTorch']);
    expect(await images({ keyword: 'hygon' })).toEqual(['PyTorch DCU']);
    // The image name (repo:tag) is searchable too.
    expect(await images({ keyword: 'hpc/gromacs' })).toEqual(['GROMACS']);
    const gpu = (await post('/image-center/image/list', { acceleratorType: 'GPU' })).body.data.list[0];
    expect(gpu).toMatchObject({
      acceleratorType: 'GPU',
      category: 'dl',
      imageName: 'ai/pytorch:2.4.0-cuda12.4',
      pullCommand: 'docker pull registry.hpc.local/ai/pytorch:2.4.0-cuda12.4',
      descFilePath: 'markdown/images/pytorch.md',
      icon: '/catalog-files/icons/pytorch.svg',
    });
  });

  it('lists applications with their url', async () => {
    const res = await post('/app-center/app/list', { keyword: 'jupyter' });
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.list[0]).toMatchObject({
      nameEn: 'JupyterLab',
      url: 'https://jupyterlab.readthedocs.io/',
    });
  });

  it('answers the image centre dictionaries with live counts', async () => {
    const acc = await h.app.inject({ method: 'GET', url: '/image-center/image/acceleratorType/list' });
    expect(acc.json().data).toEqual([
      { value: 'GPU', label: 'GPU 加速卡', labelEn: 'GPU', count: 1 },
      { value: 'DCU', label: 'DCU 加速卡', labelEn: 'DCU', count: 1 },
      { value: 'CPU', label: 'CPU', labelEn: 'CPU', count: 1 },
    ]);
    const all = await post<Array<{ value: string; count: number }>>('/image-center/image/category/list', {});
    expect(all.body.data.map((c) => [c.value, c.count])).toEqual([
      ['dl', 2],
      ['md', 1],
    ]);
    const models = await post<Array<{ value: string; labelEn: string; count: number }>>(
      '/model-zoo/model/category/list',
      {},
    );
    expect(models.body.data.map((c) => [c.value, c.labelEn, c.count])).toEqual([
      ['llm', 'Large language models', 2],
      ['cv', 'Computer vision', 1],
      ['speech', 'Speech', 0],
    ]);
    const apps = await post<unknown[]>('/app-center/app/category/list', {});
    expect(apps.body.data).toEqual([]);
    const cpu = await post<Array<{ value: string }>>('/image-center/image/category/list', {
      acceleratorType: 'CPU',
    });
    expect(cpu.body.data.map((c) => c.value)).toEqual(['md']);
    const labels = await h.app.inject({
      method: 'GET',
      url: '/image-center/image/label/list?acceleratorType=CPU',
    });
    expect(labels.json().data).toEqual([
      {
        value: 'framework',
        label: '框架',
        labelEn: 'Framework',
        children: [{ group: 'framework', value: 'gromacs', label: 'GROMACS', labelEn: 'GROMACS' }],
      },
    ]);
    const modelLabels = await h.app.inject({ method: 'GET', url: '/model-zoo/label/list' });
    expect(
      modelLabels
        .json<{ data: Array<{ value: string; children: unknown[] }> }>()
        .data.map((g) => [g.value, g.children.length]),
    ).toEqual([
      ['framework', 2],
      ['task', 2],
    ]);
    const appLabels = await h.app.inject({ method: 'GET', url: '/app-center/label/list' });
    expect(appLabels.json().data[0].children[0].value).toBe('web');
  });

  it.each([
    [{ pageSize: 0 }, '1004'],
    [{ pageSize: 501 }, '1004'],
    [{ pageNum: 0 }, '1004'],
    [{ pageNum: 'abc' }, '1004'],
    [{ labels: 'x' }, '1004'],
    [{ labels: [1, { a: 1 }] }, '1004'],
    [{ sort: 'popular' }, '1004'],
    [{ keyword: 'x'.repeat(201) }, '1004'],
  ])('refuses the bad body %j with 400 and code %s', async (body, code) => {
    const res = await post('/model-zoo/model/list', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.msg).toMatch(/\w/);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/image-center/image/list',
      headers: { 'content-type': 'application/json' },
      payload: '{"keyword": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('1004');
  });
});
