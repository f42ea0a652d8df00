import type { CatalogBundle, NewItem } from '../catalog.repository';
import type { CatalogKind } from '../../../db/tables/catalog.tables';
import { appMarkdown, imageMarkdown, modelMarkdown, type LinkResolver } from './markdown.template';
import {
  ACCELERATORS,
  APPS,
  CATEGORIES,
  IMAGE_FAMILIES,
  LABEL_GROUPS,
  MODELS,
  type AppEntry,
  type ModelEntry,
} from './seed-data';

const KINDS: readonly CatalogKind[] = ['image', 'model', 'app'];
/** Release dates are Beijing dates; each item gets its own minute so creation times (image links) are unique. */
const time = (date: string, index: number) => Date.parse(`${date}T10:00:00+08:00`) + index * 60_000;

/** The label and category dictionaries of all three catalogues. */
export function dictionaryBundle(): Omit<CatalogBundle, 'items'> {
  return {
    groups: KINDS.flatMap((kind) =>
      LABEL_GROUPS[kind].map(([value, label, label_en], i) => ({
        kind,
        value,
        label,
        label_en,
        sort_order: i,
      })),
    ),
    labels: KINDS.flatMap((kind) =>
      LABEL_GROUPS[kind].flatMap(([group, , , terms]) =>
        terms.map(([value, label, label_en], i) => ({
          kind,
          value,
          label_group: group,
          label,
          label_en,
          sort_order: i,
        })),
      ),
    ),
    categories: [
      ...ACCELERATORS.map(([value, label, label_en], i) => ({
        kind: 'accelerator' as const,
        value,
        label,
        label_en,
        sort_order: i,
      })),
      ...KINDS.flatMap((kind) =>
        CATEGORIES[kind].map(([value, label, label_en], i) => ({
          kind,
          value,
          label,
          label_en,
          sort_order: i,
        })),
      ),
    ],
  };
}

/**
 * What an image runs on, for its description: the CUDA or DTK version in its tag, else (the toolkit's own base
 * image, "12.4.1-ubuntu22.04") the tag's version; a CPU image runs on CPUs.
 */
function runtimeOf(tag: string, accel: 'GPU' | 'DCU' | 'CPU', repo: string): string {
  if (accel === 'CPU') return 'CPU';
  const toolkit = accel === 'GPU' ? 'CUDA' : 'DTK';
  const inTag = new RegExp(`${toolkit.toLowerCase()}(\\d+(?:\\.\\d+)?)`).exec(tag);
  if (inTag) return `${toolkit} ${inTag[1]}`;
  const own = /^(\d+(?:\.\d+)*)-/.exec(tag);
  return own && repo.includes(toolkit.toLowerCase()) ? `${toolkit} ${own[1]}` : toolkit;
}

const ACCEL_TEXT = {
  GPU: (rt: string) => [`本镜像适用于 NVIDIA GPU 节点(${rt})。`, `Built for NVIDIA GPU nodes (${rt}).`],
  DCU: (rt: string) => [
    `本镜像适用于海光 DCU 节点(${rt},兼容 ROCm)。`,
    `Built for Hygon DCU nodes (${rt}, ROCm compatible).`,
  ],
  CPU: () => ['本镜像面向 CPU 计算节点编译优化。', 'Compiled and tuned for CPU compute nodes.'],
};

/** One demo item with the markdown it describes, rendered once every item has its id. */
export interface DemoItem {
  item: NewItem;
  /** The key of a hand-written description under seed-content/markdown, if there is one. */
  handWritten: string;
  render(links: LinkResolver): string;
}

/** The item of a model or an application: one card per entry, with no image fields. */
function cardItem(kind: 'model' | 'app', e: ModelEntry | AppEntry, createdAt: number) {
  return {
    kind,
    name: e.nameZh,
    name_en: e.name,
    tag: e.tag,
    icon: e.icon,
    created_at: createdAt,
    download_count: e.downloads,
    description: e.zh,
    description_en: e.en,
    category: e.category,
    accelerator_type: null,
    image_name: null,
    pull_command: null,
    desc_file_path: `markdown/${kind}s/${e.key}.md`,
    labels: e.labels,
  };
}

/** The demo image centre, model zoo and application centre (images first: their markdown links to models). */
export function demoItems(): DemoItem[] {
  const labelNames = (kind: CatalogKind) => {
    const names = new Map(
      LABEL_GROUPS[kind].flatMap(([, , , terms]) =>
        terms.map(([v, zh, en]) => [v, zh === en ? zh : `${zh} ${en}`]),
      ),
    );
    return (values: readonly string[]) => values.map((v) => names.get(v) ?? v).join(', ');
  };
  const out: DemoItem[] = [];
  let n = 0;
  for (const f of IMAGE_FAMILIES) {
    for (const v of f.variants) {
      const [tag, accel, date, downloads, extra] = v;
      const version = tag.split('-')[0]!;
      const [zh, en] = ACCEL_TEXT[accel](runtimeOf(tag, accel, f.repo));
      const imageName = `${f.repo}:${tag}`;
      const key = `${f.key}-${tag}`;
      out.push({
        item: {
          kind: 'image',
          name: `${f.nameZh} ${version}`,
          name_en: `${f.name} ${version}`,
          tag,
          icon: f.icon,
          created_at: time(date, n++),
          download_count: downloads,
          description: `${f.zh}${zh}`,
          description_en: `${f.en} ${en}`,
          category: f.category,
          accelerator_type: accel,
          image_name: imageName,
          pull_command: `docker pull registry.hpc.local/${imageName}`,
          desc_file_path: `markdown/images/${key}.md`,
          url: null,
          labels: [...new Set([...f.labels, ...extra])],
        },
        handWritten: `images/${key}.md`,
        render: (links) => imageMarkdown(f, v, links),
      });
    }
  }
  const modelLabels = labelNames('model');
  for (const m of MODELS) {
    out.push({
      item: { ...cardItem('model', m, time(m.date, n++)), url: null },
      handWritten: `models/${m.key}.md`,
      render: (links) => modelMarkdown(m, modelLabels, links),
    });
  }
  const appLabels = labelNames('app');
  for (const a of APPS) {
    out.push({
      item: {
        ...cardItem('app', a, time(a.date, n++)),
        url: a.url,
        job_template: a.job ? JSON.stringify(a.job) : null,
      },
      handWritten: `apps/${a.key}.md`,
      render: () => appMarkdown(a, appLabels),
    });
  }
  return out;
}

/** Resolves the cross links of the markdown once the items have ids (same order as `demoItems()`). */
export function linkResolver(items: readonly DemoItem[], ids: readonly number[]): LinkResolver {
  const images = new Map<string, Array<{ accel: string; tag: string; href: string; label: string }>>();
  const models = new Map<string, { href: string; label: string }>();
  IMAGE_FAMILIES.forEach((f) => images.set(f.key, []));
  let i = 0;
  for (const f of IMAGE_FAMILIES) {
    for (const v of f.variants) {
      const it = items[i++]!.item;
      images
        .get(f.key)!
        .push({ accel: v[1], tag: v[0], href: `/image/${it.created_at}`, label: `${f.name} ${v[0]}` });
    }
  }
  for (const m of MODELS) models.set(m.key, { href: `/model-zoo/${ids[i++]}`, label: m.name });
  return {
    image: (family, accel, tag) =>
      images.get(family)?.find((x) => (!accel || x.accel === accel) && (!tag || x.tag === tag)) ?? null,
    model: (key) => models.get(key) ?? null,
    modelsFor: (family) => MODELS.filter((m) => m.runsIn === family).map((m) => m.key),
    modelsWithIcon: (icon) => MODELS.filter((m) => m.icon === icon).map((m) => m.key),
  };
}
