import type { Kysely } from 'kysely';
import type { PortalDatabase } from '../../db/database';
import { CatalogRepository, type NewItem } from './catalog.repository';
import { dictionaryBundle } from './seed/demo-bundle';
import { IMAGE_FAMILIES, MODELS } from './seed/seed-data';

const TWO_YEARS = 2 * 365 * 24 * 3600 * 1000;
const START = Date.UTC(2024, 0, 1);
const BATCH = 10_000;

/** A small deterministic generator, so two benchmark runs load the same catalogue. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const GROUPS = ['超算中心', '材料学院', '生命科学院', '气象研究所', '计算机学院', '物理系', 'AI 实验室'];
const GROUPS_EN = [
  'HPC centre',
  'School of Materials',
  'Life Sciences',
  'Institute of Meteorology',
  'Computer Science',
  'Physics',
  'AI Lab',
];

/** Model n: a fine-tuned variant of a demo model, published by a research group. */
function syntheticModel(n: number, rnd: () => number): NewItem {
  const base = MODELS[n % MODELS.length]!;
  const g = n % GROUPS.length;
  return {
    kind: 'model',
    name: `${base.nameZh} ${GROUPS[g]}微调版 ${n}`,
    name_en: `${base.name}-${GROUPS_EN[g]!.split(' ')[0]!.toLowerCase()}-ft${n}`,
    tag: base.tag,
    icon: base.icon,
    created_at: START + Math.floor(rnd() * TWO_YEARS),
    download_count: Math.floor(rnd() ** 3 * 20_000),
    description: `${base.zh}由${GROUPS[g]}在自有数据上继续训练，编号 ${n}。`,
    description_en: `${base.en} Further trained by ${GROUPS_EN[g]} on in-house data, build ${n}.`,
    category: base.category,
    accelerator_type: null,
    image_name: null,
    pull_command: null,
    desc_file_path: null,
    url: null,
    labels: base.labels,
  };
}

const VARIANTS = IMAGE_FAMILIES.flatMap((f) => f.variants.map((v) => ({ f, v })));

/** Image n: a rebuild of a demo image (unique `repo:tag` per accelerator type). */
function syntheticImage(n: number, rnd: () => number): NewItem {
  const { f, v } = VARIANTS[n % VARIANTS.length]!;
  const [tag, accel, , , extra] = v;
  const imageName = `${f.repo}:${tag}-b${n}`;
  return {
    kind: 'image',
    name: `${f.nameZh} ${tag} 构建 ${n}`,
    name_en: `${f.name} ${tag} build ${n}`,
    tag: `${tag}-b${n}`,
    icon: f.icon,
    created_at: START + Math.floor(rnd() * TWO_YEARS),
    download_count: Math.floor(rnd() ** 3 * 20_000),
    description: f.zh,
    description_en: f.en,
    category: f.category,
    accelerator_type: accel,
    image_name: imageName,
    pull_command: `docker pull registry.hpc.local/${imageName}`,
    desc_file_path: null,
    url: null,
    labels: [...new Set([...f.labels, ...extra])],
  };
}

/**
 * Loads a large synthetic catalogue into an empty database for the benchmark (`bench/catalog`): the demo
 * dictionaries plus `models` and `images` items generated from the demo data, inserted in batches of
 * multi-row INSERTs inside transactions.
 */
export async function seedSyntheticCatalog(
  db: Kysely<PortalDatabase>,
  counts: { models: number; images: number },
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const repo = new CatalogRepository(db);
  await repo.insertBundle({ ...dictionaryBundle(), items: [] });
  const rnd = random(42);
  const total = counts.models + counts.images;
  let done = 0;
  for (const [count, make] of [
    [counts.models, syntheticModel],
    [counts.images, syntheticImage],
  ] as const) {
    for (let start = 0; start < count; start += BATCH) {
      const items = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => make(start + i, rnd));
      await repo.insertBundle({ groups: [], labels: [], categories: [], items });
      done += items.length;
      onProgress?.(done, total);
    }
  }
}
