import fs from 'node:fs';
import path from 'node:path';
// server-kit does not export its test helpers as a package entry yet, hence the relative path.
import { makeTempDir, type TestDbTarget } from '@hpc/server-kit/testing';
import { buildPortal } from '../../app';
import { readPortalConfig } from '../../config';
import { CatalogRepository, type CatalogBundle, type NewItem } from './catalog.repository';

/** A small catalogue whose every order and filter result is known, for the route tests. */
export const T0 = Date.UTC(2025, 0, 1);

const item = (
  kind: NewItem['kind'],
  over: Partial<NewItem> & Pick<NewItem, 'name' | 'name_en'>,
): NewItem => ({
  kind,
  tag: 'v1',
  icon: null,
  created_at: T0,
  download_count: 0,
  description: '',
  description_en: '',
  category: '',
  accelerator_type: null,
  image_name: null,
  pull_command: null,
  desc_file_path: null,
  url: null,
  labels: [],
  ...over,
});

export const FIXTURE: CatalogBundle = {
  groups: [
    { kind: 'model', value: 'framework', label: '框架', label_en: 'Framework', sort_order: 0 },
    { kind: 'model', value: 'task', label: '任务', label_en: 'Task', sort_order: 1 },
    { kind: 'image', value: 'framework', label: '框架', label_en: 'Framework', sort_order: 0 },
    { kind: 'app', value: 'interface', label: '使用方式', label_en: 'Interface', sort_order: 0 },
  ],
  labels: [
    ['model', 'pytorch', 'framework', 'PyTorch', 'PyTorch'],
    ['model', 'tensorflow', 'framework', 'TensorFlow', 'TensorFlow'],
    ['model', 'text-generation', 'task', '文本生成', 'Text generation'],
    ['model', 'image-classification', 'task', '图像分类', 'Image classification'],
    ['image', 'pytorch', 'framework', 'PyTorch', 'PyTorch'],
    ['image', 'gromacs', 'framework', 'GROMACS', 'GROMACS'],
    ['app', 'web', 'interface', '网页应用', 'Web application'],
  ].map(([kind, value, label_group, label, label_en], i) => ({
    kind: kind as NewItem['kind'],
    value: value!,
    label_group: label_group!,
    label: label!,
    label_en: label_en!,
    sort_order: i,
  })),
  categories: [
    { kind: 'accelerator', value: 'GPU', label: 'GPU 加速卡', label_en: 'GPU', sort_order: 0 },
    { kind: 'accelerator', value: 'DCU', label: 'DCU 加速卡', label_en: 'DCU', sort_order: 1 },
    { kind: 'accelerator', value: 'CPU', label: 'CPU', label_en: 'CPU', sort_order: 2 },
    { kind: 'image', value: 'dl', label: '深度学习框架', label_en: 'Deep learning', sort_order: 0 },
    { kind: 'image', value: 'md', label: '分子动力学', label_en: 'Molecular dynamics', sort_order: 1 },
    { kind: 'model', value: 'llm', label: '大语言模型', label_en: 'Large language models', sort_order: 0 },
    { kind: 'model', value: 'cv', label: '计算机视觉', label_en: 'Computer vision', sort_order: 1 },
    { kind: 'model', value: 'speech', label: '语音', label_en: 'Speech', sort_order: 2 },
  ],
  items: [
    // Models: names (English, lower-cased) sort alpha < bert < llama < qwen < resnet; times and downloads differ.
    item('model', {
      name: '通义千问 对话模型',
      name_en: 'Qwen Chat',
      description: '中文大语言模型，擅长对话',
      description_en: 'A Chinese LARGE language model',
      category: 'llm',
      created_at: T0 + 5000,
      download_count: 10,
      labels: ['pytorch', 'text-generation'],
      desc_file_path: 'markdown/models/qwen.md',
    }),
    item('model', {
      name: '残差网络',
      name_en: 'ResNet-50',
      description: '经典图像分类模型',
      description_en: 'Classic image classifier',
      category: 'cv',
      created_at: T0 + 1000,
      download_count: 50,
      labels: ['pytorch', 'image-classification'],
    }),
    item('model', {
      name: 'BERT 中文',
      name_en: 'bert-base',
      description: '掩码语言模型',
      description_en: 'Masked language model',
      category: 'nlp',
      created_at: T0 + 3000,
      download_count: 30,
      labels: ['tensorflow', 'text-generation'],
    }),
    item('model', {
      name: 'Llama 对话',
      name_en: 'Llama Chat',
      description: '英文对话模型',
      description_en: 'English chat model',
      category: 'llm',
      created_at: T0 + 4000,
      download_count: 20,
      labels: ['pytorch', 'text-generation'],
    }),
    item('model', {
      name: '阿尔法 参数',
      name_en: 'Alpha params',
      description: '蛋白质结构预测',
      description_en: 'Protein structure',
      category: 'science',
      created_at: T0 + 2000,
      download_count: 40,
      labels: [],
    }),
    item('image', {
      name: 'PyTorch 框架',
      name_en: 'PyTorch',
      tag: '2.4.0-cuda12.4',
      icon: 'icons/pytorch.svg',
      category: 'dl',
      accelerator_type: 'GPU',
      image_name: 'ai/pytorch:2.4.0-cuda12.4',
      pull_command: 'docker pull registry.hpc.local/ai/pytorch:2.4.0-cuda12.4',
      desc_file_path: 'markdown/images/pytorch.md',
      description: '深度学习框架',
      description_en: 'Deep learning framework',
      created_at: T0 + 100,
      labels: ['pytorch'],
    }),
    item('image', {
      name: 'PyTorch 框架 DCU',
      name_en: 'PyTorch DCU',
      tag: '2.1.0-dtk24.04',
      category: 'dl',
      accelerator_type: 'DCU',
      image_name: 'ai/pytorch:2.1.0-dtk24.04',
      description: '海光 DCU 版本',
      description_en: 'Hygon DCU build',
      created_at: T0 + 200,
      labels: ['pytorch'],
    }),
    item('image', {
      name: 'GROMACS 分子动力学',
      name_en: 'GROMACS',
      tag: '2024.3',
      category: 'md',
      accelerator_type: 'CPU',
      image_name: 'hpc/gromacs:2024.3',
      description: '分子动力学软件',
      description_en: 'Molecular dynamics engine',
      created_at: T0 + 300,
      labels: ['gromacs'],
    }),
    item('app', {
      name: '交互式笔记本',
      name_en: 'JupyterLab',
      category: 'ai-dev',
      url: 'https://jupyterlab.readthedocs.io/',
      desc_file_path: 'markdown/apps/jupyterlab.md',
      labels: ['web'],
    }),
  ],
};

export interface Harness {
  app: Awaited<ReturnType<typeof buildPortal>>['app'];
  repo: CatalogRepository;
  /** The portal's KV store (the download counter's once-a-day keys). */
  kv: Awaited<ReturnType<typeof buildPortal>>['deps']['kv'];
  dataDir: string;
  /** Ids of FIXTURE.items, in order. */
  ids: number[];
  close(): Promise<void>;
}

/** A portal on a fresh database of `target` with the fixture catalogue and its files. */
export async function startHarness(target: TestDbTarget): Promise<Harness> {
  const db = target.create();
  const tmp = makeTempDir('hpc-catalog-');
  const config = readPortalConfig({
    DATA_DIR: tmp.dir,
    DATABASE_URL: db.url.startsWith('postgres') ? db.url : '',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  });
  if (db.schema) config.databaseSchema = db.schema;
  else config.databaseUrl = db.url;
  const { app, deps } = await buildPortal(config);
  const repo = new CatalogRepository(deps.db);
  const ids = await repo.insertBundle(FIXTURE);
  const root = path.join(tmp.dir, 'catalog');
  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  };
  write('markdown/models/qwen.md', '# Qwen\n\n## 快速开始 Quick start\n');
  write('markdown/images/pytorch.md', '# PyTorch\n');
  write('markdown/apps/jupyterlab.md', '# JupyterLab\n');
  write('icons/pytorch.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('images/badge.png', Buffer.from('89504e470d0a1a0a', 'hex'));
  write('images/page.html', '<script>alert(1)</script>');
  fs.writeFileSync(path.join(tmp.dir, 'secret.md'), 'outside the catalogue');
  fs.symlinkSync(path.join(tmp.dir, 'secret.md'), path.join(root, 'markdown', 'escape.md'));
  fs.symlinkSync(path.join(tmp.dir, 'secret.md'), path.join(root, 'images', 'escape.svg'));
  return {
    app,
    repo,
    kv: deps.kv,
    dataDir: tmp.dir,
    ids,
    async close() {
      await app.close();
      await db.cleanup();
      tmp.cleanup();
    },
  };
}
