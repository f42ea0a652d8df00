import type { Generated } from 'kysely';

/** The kinds of catalogue item; one table holds all three so search, labels and paging share one code path. */
export type CatalogKind = 'image' | 'model' | 'app';

export interface CatalogItemTable {
  id: Generated<number>;
  kind: CatalogKind;
  name: string;
  name_en: string;
  tag: string;
  icon: string | null;
  /** Milliseconds since the epoch; for images also the key of the spec's in-text links `/image/{time}#anchor`. */
  created_at: number;
  download_count: Generated<number>;
  description: string;
  description_en: string;
  category: string;
  accelerator_type: string | null;
  image_name: string | null;
  pull_command: string | null;
  /** Markdown description, relative to the catalogue storage `DATA_DIR/catalog/`. */
  desc_file_path: string | null;
  url: string | null;
  /** Applications only: the ready job of "run this application", contracts' `AppJobTemplate` as JSON text. */
  job_template: string | null;
}

export interface CatalogLabelGroupTable {
  kind: CatalogKind;
  value: string;
  label: string;
  label_en: string;
  sort_order: number;
}

export interface CatalogLabelTable {
  kind: CatalogKind;
  /** Unique within its kind: list bodies name labels by value only. */
  value: string;
  label_group: string;
  label: string;
  label_en: string;
  sort_order: number;
}

/** Categories per kind, and the image centre's accelerator types under kind 'accelerator'. */
export interface CatalogCategoryTable {
  kind: CatalogKind | 'accelerator';
  value: string;
  label: string;
  label_en: string;
  sort_order: number;
}

export interface CatalogItemLabelTable {
  item_id: number;
  label_value: string;
}

/**
 * One row per kind. `version` changes on every structural write (items, labels); `counts_version` when only
 * download counts changed. Instances sharing one PostgreSQL poll it to know when their in-memory index is stale.
 */
export interface CatalogVersionTable {
  kind: CatalogKind;
  version: number;
  counts_version: number;
}

/** One file of a model (the model zoo's file view); `stored_path` is relative to the catalogue storage. */
export interface CatalogModelFileTable {
  item_id: number;
  path: string;
  stored_path: string;
  size: number;
  sha256: string;
}

export interface CatalogTables {
  catalog_item: CatalogItemTable;
  catalog_label_group: CatalogLabelGroupTable;
  catalog_label: CatalogLabelTable;
  catalog_category: CatalogCategoryTable;
  catalog_item_label: CatalogItemLabelTable;
  catalog_version: CatalogVersionTable;
  catalog_model_file: CatalogModelFileTable;
}
