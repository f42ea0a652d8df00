import { Value } from 'typebox/value';
import type {
  AcceleratorType,
  AppCard,
  AppDetail,
  AppListBody,
  CatalogCard,
  CatalogSort,
  Category,
  ImageCard,
  ImageListBody,
  LabelGroup,
  ModelCard,
  ModelListBody,
  ServerText,
} from '@hpc/contracts';
import { AppJobTemplate, CommonCodes, Limits, PortalCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { keywordTerms, type CatalogIndex, type IndexQuery } from './catalog-index';
import type { CatalogIndexStore } from './catalog-index-store';
import type { CatalogStorage } from './catalog-storage';
import type { CatalogRepository, ItemWithLabels } from './catalog.repository';
import type { CatalogKind } from '../../db/tables/catalog.tables';
import { PortalText } from '../../messages';

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

// ModelListBody and AppListBody are one shape (contracts' list fields): one of them stands for both.
type ListBody = ImageListBody | ModelListBody;

/** Where the web fetches catalogue files: icons and the images of the markdown descriptions. */
export const CATALOG_FILES_PREFIX = '/catalog-files/';

/** An icon as stored (a path inside the catalogue storage, or an absolute URL) → what the card shows. */
function iconUrl(icon: string | null): string | null {
  if (!icon) return null;
  return /^(https?:)?\//.test(icon) ? icon : CATALOG_FILES_PREFIX + icon;
}

function baseCard(r: ItemWithLabels): CatalogCard {
  return {
    id: r.id,
    name: r.name,
    nameEn: r.name_en,
    tag: r.tag,
    icon: iconUrl(r.icon),
    time: Number(r.created_at),
    downloadCount: Number(r.download_count),
    description: r.description,
    descriptionEn: r.description_en,
    labelList: r.labels,
  };
}

const toImageCard = (r: ItemWithLabels): ImageCard => ({
  ...baseCard(r),
  acceleratorType: r.accelerator_type ?? '',
  category: r.category,
  imageName: r.image_name ?? '',
  pullCommand: r.pull_command ?? '',
  descFilePath: r.desc_file_path,
});
const toModelCard = (r: ItemWithLabels): ModelCard => ({
  ...baseCard(r),
  category: r.category,
  filePath: r.desc_file_path,
});
const toAppCard = (r: ItemWithLabels): AppCard => ({ ...toModelCard(r), url: r.url });

/**
 * An application's ready job, from its JSON text. A text that is not a template of the contract (edited by hand in
 * the database) reads as none: the page then offers no "run this application" rather than a broken form.
 */
export function parseJobTemplate(text: string | null): AppJobTemplate | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return Value.Check(AppJobTemplate, value) ? value : null;
}

const toAppDetail = (r: ItemWithLabels): AppDetail => ({
  ...toAppCard(r),
  jobTemplate: parseJobTemplate(r.job_template),
});

const NOT_FOUND: Record<CatalogKind, (id: number) => ServerText> = {
  image: PortalText.noImageWithId,
  model: PortalText.noModelWithId,
  app: PortalText.noAppWithId,
};

/**
 * The catalogue rules: lists answered from the in-memory index (with the page's cards from the repository),
 * details, dictionaries with live counts, download counts and the markdown files.
 */
export class CatalogService {
  constructor(
    private readonly repo: CatalogRepository,
    private readonly stores: Record<CatalogKind, CatalogIndexStore>,
    private readonly storage: CatalogStorage,
  ) {}

  listImages(body: ImageListBody): Promise<Page<ImageCard>> {
    return this.list('image', body, toImageCard);
  }

  listModels(body: ModelListBody): Promise<Page<ModelCard>> {
    return this.list('model', body, toModelCard);
  }

  listApps(body: AppListBody): Promise<Page<AppCard>> {
    return this.list('app', body, toAppCard);
  }

  private list<T>(kind: CatalogKind, body: ListBody, toCard: (r: ItemWithLabels) => T): Promise<Page<T>> {
    const q: IndexQuery = {
      keyword: keywordTerms(body.keyword).join(' '),
      labels: [...new Set(body.labels ?? [])].sort(),
      category: body.category || undefined,
      acceleratorType: ('acceleratorType' in body && body.acceleratorType) || undefined,
      sort: body.sort ?? ('newest' satisfies CatalogSort),
      pageNum: body.pageNum ?? 1,
      pageSize: Math.min(body.pageSize ?? Limits.defaultPageSize, Limits.maxCatalogPageSize),
    };
    const key = `list:${JSON.stringify([q.keyword, q.labels, q.category, q.acceleratorType, q.sort, q.pageNum, q.pageSize])}`;
    return this.stores[kind].read(key, async (index) => {
      const { total, ids } = index.query(q);
      const rows = await this.repo.findItems(kind, ids);
      return { list: rows.map(toCard), total, pageNum: q.pageNum, pageSize: q.pageSize };
    });
  }

  async imageDetail(acceleratorType: string, imageName: string): Promise<ImageCard> {
    const row = await this.repo.findImageByName(acceleratorType, imageName);
    if (!row) throw new AppError(PortalCodes.notFound, PortalText.noImageFor(imageName, acceleratorType));
    return toImageCard(row);
  }

  async modelDetail(id: number): Promise<ModelCard> {
    return toModelCard(await this.detail('model', id));
  }

  async appDetail(id: number): Promise<AppDetail> {
    return toAppDetail(await this.detail('app', id));
  }

  private async detail(kind: CatalogKind, id: number): Promise<ItemWithLabels> {
    const row = await this.repo.findById(kind, id);
    if (!row) throw new AppError(PortalCodes.notFound, NOT_FOUND[kind](id));
    return row;
  }

  /** Where an image's description is, found by id or by its creation time (the spec's in-text image links). */
  async imageDescPath(query: { id?: number; createTime?: number }) {
    if (query.id === undefined && query.createTime === undefined) {
      throw new AppError(CommonCodes.incompleteParams, PortalText.imageIdOrCreateTimeRequired);
    }
    const row = await this.repo.findImageRoute(
      query.id !== undefined ? { id: query.id } : { createTime: query.createTime! },
    );
    if (!row) throw new AppError(PortalCodes.notFound, PortalText.noSuchImage);
    return {
      id: row.id,
      acceleratorType: row.accelerator_type ?? '',
      imageName: row.image_name ?? '',
      descFilePath: row.desc_file_path,
    };
  }

  /**
   * +1 download of a model, persisted, once per downloader and model a day (`once`: true the first time it is asked
   * for a key within a day); answers the count. The call is open to anyone (spec §7) and the catalogue sorts by it:
   * counted each time, a loop pushed any model up the ranking (found from outside, 2026-12-01).
   */
  async countModelDownload(
    id: number,
    downloader: string,
    once: (key: string) => Promise<boolean>,
  ): Promise<{ downloadCount: number }> {
    // The model first: a key recorded for an id that is none kept a day of memory per made-up id (found from
    // outside, 2026-12-01: 100,000 anonymous calls, 100,000 keys).
    await this.modelDetail(id);
    if (!(await once(`model-count:${id}:${downloader}`))) {
      // Read after the key: a parallel call that set it may have counted meanwhile.
      return { downloadCount: (await this.modelDetail(id)).downloadCount };
    }
    const result = await this.repo.incrementDownloads('model', id);
    if (!result) throw new AppError(PortalCodes.notFound, PortalText.noModelWithId(id));
    this.stores.model.applyDownloadCount(id, result.downloadCount, result.countsVersion);
    return { downloadCount: result.downloadCount };
  }

  /** Label groups with their labels; for images of one accelerator type, only the labels those images carry. */
  labelGroups(kind: CatalogKind, acceleratorType?: string): Promise<LabelGroup[]> {
    return this.stores[kind].read(`labels:${acceleratorType ?? ''}`, async (index) => {
      const used = acceleratorType ? index.usedLabels(acceleratorType) : null;
      const [groups, labels] = await Promise.all([this.repo.labelGroups(kind), this.repo.labels(kind)]);
      return groups
        .map((g) => ({
          value: g.value,
          label: g.label,
          labelEn: g.label_en,
          children: labels
            .filter((l) => l.label_group === g.value && (!used || used.has(l.value)))
            .map((l) => ({ group: g.value, value: l.value, label: l.label, labelEn: l.label_en })),
        }))
        .filter((g) => g.children.length > 0);
    });
  }

  /** The image centre's accelerator types with their image counts. */
  acceleratorTypes(): Promise<AcceleratorType[]> {
    return this.stores.image.read('accelerators', async (index) => {
      const counts = index.acceleratorCounts();
      const rows = await this.repo.categories('accelerator');
      return rows.map((r) => ({
        value: r.value,
        label: r.label,
        labelEn: r.label_en,
        count: counts.get(r.value) ?? 0,
      }));
    });
  }

  /** Image categories with counts; within one accelerator type, only the categories it has. */
  imageCategories(acceleratorType?: string): Promise<Category[]> {
    return this.stores.image.read(`categories:${acceleratorType ?? ''}`, (index) =>
      this.categoriesWithCounts('image', index, acceleratorType),
    );
  }

  /** Model or application categories with counts (the filter panel's category facet). */
  categories(kind: 'model' | 'app'): Promise<Category[]> {
    return this.stores[kind].read('categories:', (index) => this.categoriesWithCounts(kind, index));
  }

  private async categoriesWithCounts(kind: CatalogKind, index: CatalogIndex, acceleratorType?: string) {
    const counts = index.categoryCounts(acceleratorType);
    const rows = await this.repo.categories(kind);
    return rows
      .map((r) => ({ value: r.value, label: r.label, labelEn: r.label_en, count: counts.get(r.value) ?? 0 }))
      .filter((c) => !acceleratorType || c.count > 0);
  }

  readMarkdown(filePath: string): Promise<string> {
    return this.storage.readMarkdown(filePath);
  }

  openCatalogFile(filePath: string) {
    return this.storage.openImage(filePath);
  }
}
