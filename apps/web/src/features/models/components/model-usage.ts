import type { ModelCard } from '@hpc/contracts';

/** Where the centre publishes model files on the clusters' shared storage. */
export const MODEL_ROOT = '/public/models';

/**
 * The model's directory on shared storage: the portal's `storagePath` when the contract carries one (requested),
 * else the name of its description file, which the catalogue keeps equal to the directory name.
 */
export function modelDirectory(item: ModelCard & { storagePath?: unknown }): string {
  if (typeof item.storagePath === 'string' && item.storagePath.startsWith('/')) return item.storagePath;
  const base = (item.filePath ?? '').split('/').pop()?.replace(/\.md$/i, '');
  const slug =
    base ||
    (item.nameEn || item.name)
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-+|-+$/g, '');
  return `${MODEL_ROOT}/${slug || `model-${item.id}`}`;
}

/** The copyable snippet of the model detail page: look at the files, copy them to the home directory. */
export function modelUsage(item: ModelCard & { storagePath?: unknown }): string {
  const dir = modelDirectory(item);
  return [
    `# ${item.nameEn || item.name}${item.tag ? ` (${item.tag})` : ''}`,
    `ls -lh ${dir}`,
    `cp -r ${dir} ~/models/`,
  ].join('\n');
}
