import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { CatalogLabel } from '@hpc/contracts';
import type { PortalDatabase } from '../../db/database';
import type { IndexItem } from './catalog-index';
import type { CatalogVersion, IndexSource } from './catalog-index-store';
import type {
  CatalogCategoryTable,
  CatalogItemTable,
  CatalogKind,
  CatalogLabelGroupTable,
  CatalogLabelTable,
  CatalogModelFileTable,
} from '../../db/tables/catalog.tables';

export type ItemRow = Selectable<CatalogItemTable>;
/** An item row with its labels, as the service turns it into a card. */
export type ItemWithLabels = ItemRow & { labels: CatalogLabel[] };

/** One item to insert, with the values of its labels. */
export type NewItem = Omit<Insertable<CatalogItemTable>, 'id'> & { labels: readonly string[] };

/** The dictionaries and items of a seed or an import. */
export interface CatalogBundle {
  groups: Insertable<CatalogLabelGroupTable>[];
  labels: Insertable<CatalogLabelTable>[];
  categories: Insertable<CatalogCategoryTable>[];
  items: NewItem[];
}

type Db = Kysely<PortalDatabase>;

/** Rows per multi-row INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;
/** Items per read when the index loads a catalogue. */
const LOAD_BATCH = 5000;
const chunks = <T>(list: readonly T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** The only place with SQL for the catalogue. */
export class CatalogRepository implements IndexSource {
  constructor(private readonly db: Db) {}

  async readVersion(kind: CatalogKind): Promise<CatalogVersion> {
    const row = await this.db
      .selectFrom('catalog_version')
      .select(['version', 'counts_version'])
      .where('kind', '=', kind)
      .executeTakeFirst();
    return { version: Number(row?.version ?? 0), countsVersion: Number(row?.counts_version ?? 0) };
  }

  /** Bumps the kind's version (or its counts version) and returns the new value. */
  private async bump(trx: Transaction<PortalDatabase>, kind: CatalogKind, counts: boolean): Promise<number> {
    const column = counts ? 'counts_version' : 'version';
    const row = await trx
      .insertInto('catalog_version')
      .values({ kind, version: counts ? 0 : 1, counts_version: counts ? 1 : 0 })
      .onConflict((oc) =>
        oc.column('kind').doUpdateSet({ [column]: sql`catalog_version.${sql.ref(column)} + 1` }),
      )
      .returning(column)
      .executeTakeFirstOrThrow();
    return Number((row as Record<string, unknown>)[column]);
  }

  /** Every item of a kind as the index needs it, read in id ranges so that a large catalogue never sits twice in memory. */
  async loadIndexItems(kind: CatalogKind): Promise<IndexItem[]> {
    const out: IndexItem[] = [];
    for (let after = 0; ;) {
      const rows = await this.db
        .selectFrom('catalog_item')
        .select([
          'id',
          'name',
          'name_en',
          'description',
          'description_en',
          'image_name',
          'category',
          'accelerator_type',
          'created_at',
          'download_count',
        ])
        .where('kind', '=', kind)
        .where('id', '>', after)
        .orderBy('id')
        .limit(LOAD_BATCH)
        .execute();
      if (rows.length === 0) return out;
      const last = rows[rows.length - 1]!.id;
      const labels = await this.db
        .selectFrom('catalog_item_label')
        .select(['item_id', 'label_value'])
        .where('item_id', '>', after)
        .where('item_id', '<=', last)
        .execute();
      const byItem = new Map<number, string[]>();
      for (const l of labels) {
        const list = byItem.get(l.item_id);
        if (list) list.push(l.label_value);
        else byItem.set(l.item_id, [l.label_value]);
      }
      for (const r of rows) {
        out.push({
          id: r.id,
          name: r.name,
          nameEn: r.name_en,
          description: r.description,
          descriptionEn: r.description_en,
          extraText: r.image_name ?? undefined,
          category: r.category,
          acceleratorType: r.accelerator_type,
          createdAt: Number(r.created_at),
          downloadCount: Number(r.download_count),
          labels: byItem.get(r.id) ?? [],
        });
      }
      after = last;
    }
  }

  async loadDownloadCounts(kind: CatalogKind): Promise<Array<{ id: number; downloadCount: number }>> {
    const rows = await this.db
      .selectFrom('catalog_item')
      .select(['id', 'download_count'])
      .where('kind', '=', kind)
      .execute();
    return rows.map((r) => ({ id: r.id, downloadCount: Number(r.download_count) }));
  }

  /** Items with their labels, in the order of `ids` (ids of another kind or unknown are left out). */
  async findItems(kind: CatalogKind, ids: readonly number[]): Promise<ItemWithLabels[]> {
    if (ids.length === 0) return [];
    // By primary key only: with `kind` in the WHERE clause SQLite prefers the (kind, created_at) index and scans
    // the whole catalogue. The kind is checked below instead.
    const rows = (
      await this.db
        .selectFrom('catalog_item')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute()
    ).filter((r) => r.kind === kind);
    const labels = await this.labelsOf(
      kind,
      rows.map((r) => r.id),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [{ ...r, labels: labels.get(id) ?? [] }] : [];
    });
  }

  private async labelsOf(kind: CatalogKind, ids: number[]): Promise<Map<number, CatalogLabel[]>> {
    const out = new Map<number, CatalogLabel[]>();
    if (ids.length === 0) return out;
    const rows = await this.db
      .selectFrom('catalog_item_label as il')
      .innerJoin('catalog_label as l', (j) =>
        j.onRef('l.value', '=', 'il.label_value').on('l.kind', '=', kind),
      )
      .leftJoin('catalog_label_group as g', (j) =>
        j.onRef('g.value', '=', 'l.label_group').on('g.kind', '=', kind),
      )
      .select(['il.item_id', 'l.value', 'l.label_group', 'l.label', 'l.label_en'])
      .where('il.item_id', 'in', ids)
      .orderBy('g.sort_order')
      .orderBy('l.sort_order')
      .orderBy('l.value')
      .execute();
    for (const r of rows) {
      const label = { group: r.label_group, value: r.value, label: r.label, labelEn: r.label_en };
      const list = out.get(r.item_id);
      if (list) list.push(label);
      else out.set(r.item_id, [label]);
    }
    return out;
  }

  async findById(kind: CatalogKind, id: number): Promise<ItemWithLabels | undefined> {
    return (await this.findItems(kind, [id]))[0];
  }

  async findImageByName(acceleratorType: string, imageName: string): Promise<ItemWithLabels | undefined> {
    const row = await this.db
      .selectFrom('catalog_item')
      .select('id')
      .where('kind', '=', 'image')
      .where('accelerator_type', '=', acceleratorType)
      .where('image_name', '=', imageName)
      .executeTakeFirst();
    return row ? this.findById('image', row.id) : undefined;
  }

  async findImageRoute(
    by: { id: number } | { createTime: number },
  ): Promise<Pick<ItemRow, 'id' | 'accelerator_type' | 'image_name' | 'desc_file_path'> | undefined> {
    return this.db
      .selectFrom('catalog_item')
      .select(['id', 'accelerator_type', 'image_name', 'desc_file_path'])
      .where('kind', '=', 'image')
      .$call((q) => ('id' in by ? q.where('id', '=', by.id) : q.where('created_at', '=', by.createTime)))
      .orderBy('id')
      .executeTakeFirst();
  }

  /** +1 download, persisted with the counts version in one transaction; undefined when there is no such item. */
  async incrementDownloads(
    kind: CatalogKind,
    id: number,
  ): Promise<{ downloadCount: number; countsVersion: number } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('catalog_item')
        .set({ download_count: sql`download_count + 1` })
        .where('kind', '=', kind)
        .where('id', '=', id)
        .returning('download_count')
        .executeTakeFirst();
      if (!row) return undefined;
      const countsVersion = await this.bump(trx, kind, true);
      return { downloadCount: Number(row.download_count), countsVersion };
    });
  }

  async labelGroups(kind: CatalogKind) {
    return this.db
      .selectFrom('catalog_label_group')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('sort_order')
      .orderBy('value')
      .execute();
  }

  async labels(kind: CatalogKind) {
    return this.db
      .selectFrom('catalog_label')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('sort_order')
      .orderBy('value')
      .execute();
  }

  async categories(kind: CatalogKind | 'accelerator') {
    return this.db
      .selectFrom('catalog_category')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('sort_order')
      .orderBy('value')
      .execute();
  }

  /** True when no catalogue item and no label exists (the demo seed runs only then). */
  async isEmpty(): Promise<boolean> {
    const item = await this.db.selectFrom('catalog_item').select('id').limit(1).executeTakeFirst();
    const label = await this.db.selectFrom('catalog_label').select('value').limit(1).executeTakeFirst();
    return !item && !label;
  }

  /**
   * Inserts dictionaries and items in one transaction (multi-row inserts), then bumps the versions of the kinds it
   * touched. Fast enough to load 200,000 items for the benchmark. Returns the new item ids in order.
   */
  async insertBundle(bundle: CatalogBundle): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const allIds: number[] = [];
      for (const part of chunks(bundle.groups))
        await trx.insertInto('catalog_label_group').values(part).execute();
      for (const part of chunks(bundle.labels)) await trx.insertInto('catalog_label').values(part).execute();
      for (const part of chunks(bundle.categories))
        await trx.insertInto('catalog_category').values(part).execute();
      for (const part of chunks(bundle.items)) {
        const ids = await trx
          .insertInto('catalog_item')
          .values(part.map(({ labels: _labels, ...row }) => row))
          .returning('id')
          .execute();
        allIds.push(...ids.map((r) => r.id));
        // Both databases return the rows of a multi-row VALUES insert in the order given.
        const links = part.flatMap((item, i) =>
          [...new Set(item.labels)].map((label_value) => ({ item_id: ids[i]!.id, label_value })),
        );
        for (const l of chunks(links, 1000)) await trx.insertInto('catalog_item_label').values(l).execute();
      }
      const kinds = new Set<CatalogKind>([
        ...bundle.items.map((i) => i.kind),
        ...bundle.labels.map((l) => l.kind),
        ...bundle.groups.map((g) => g.kind),
      ]);
      for (const kind of kinds) await this.bump(trx, kind, false);
      return allIds;
    });
  }
  /** The files of a model, sorted by path. */
  async modelFiles(itemId: number): Promise<CatalogModelFileTable[]> {
    const rows = await this.db
      .selectFrom('catalog_model_file')
      .selectAll()
      .where('item_id', '=', itemId)
      .orderBy('path')
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }

  async modelFile(itemId: number, filePath: string): Promise<CatalogModelFileTable | undefined> {
    const row = await this.db
      .selectFrom('catalog_model_file')
      .selectAll()
      .where('item_id', '=', itemId)
      .where('path', '=', filePath)
      .executeTakeFirst();
    return row && { ...row, size: Number(row.size) };
  }

  /** Replaces the file list of a model in one transaction (readers see the old list or the new one). */
  async replaceModelFiles(itemId: number, files: readonly Omit<CatalogModelFileTable, 'item_id'>[]) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('catalog_model_file').where('item_id', '=', itemId).execute();
      for (const part of chunks(files.map((f) => ({ ...f, item_id: itemId })))) {
        await trx.insertInto('catalog_model_file').values(part).execute();
      }
    });
  }

  /** A model by its English name (the demo seed finds its models again on a later start). */
  async findModelByNameEn(nameEn: string): Promise<{ id: number } | undefined> {
    return this.db
      .selectFrom('catalog_item')
      .select('id')
      .where('kind', '=', 'model')
      .where('name_en', '=', nameEn)
      .executeTakeFirst();
  }
}
