/** The features a quick entry may lead to (issue 22 §4), in the default order; ids are what preferences keep. */
export const ENTRIES = {
  jobs: '/jobs?tab=active',
  submit: '/jobs?tab=submit',
  history: '/jobs?tab=history',
  efile: '/efile',
  apps: '/full-site-list',
  images: '/service-list',
  models: '/model-zoo/list',
  'user-center': '/user-center',
} as const;
export type EntryId = keyof typeof ENTRIES;
export const ENTRY_IDS = Object.keys(ENTRIES) as EntryId[];
export const DEFAULT_ENTRIES: EntryId[] = ['jobs', 'submit', 'efile', 'apps', 'images', 'models'];

/** The user's saved entries, those this version no longer knows dropped; the default set when never chosen. */
export function entriesOf(saved: readonly string[] | null | undefined): EntryId[] {
  if (!saved) return DEFAULT_ENTRIES;
  return saved.filter((id): id is EntryId => Object.hasOwn(ENTRIES, id));
}

/** Moves one entry up (-1) or down (+1), keeping the others' order. */
export function moveEntry<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}
