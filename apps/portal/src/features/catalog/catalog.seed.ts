import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PortalDeps } from '../../deps';
import { CatalogRepository } from './catalog.repository';
import { CatalogStorage, catalogStorageDir } from './catalog-storage';
import { indexModelFiles } from './model-files';
import { demoModelFiles } from './seed/model-files.data';
import { demoItems, dictionaryBundle, linkResolver } from './seed/demo-bundle';
import type { LinkResolver } from './seed/markdown.template';

const CONTENT = path.join('src', 'features', 'catalog', 'seed-content');

/**
 * The seed-content folder, from the source tree (features/catalog/) or from a bundle (apps/portal/dist/server.js,
 * apps/all-in-one/dist/main.js): walk up from this module to the folder that holds it.
 */
export function findSeedContent(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    for (const candidate of [
      path.join(dir, 'seed-content'),
      path.join(dir, CONTENT),
      path.join(dir, 'portal', CONTENT),
      path.join(dir, 'apps', 'portal', CONTENT),
    ]) {
      if (fs.existsSync(path.join(candidate, 'icons'))) return candidate;
    }
    if (path.dirname(dir) === dir) throw new Error(`catalogue seed content not found above ${from}`);
  }
}

/** `{{image:family[:accelerator]}}` and `{{model:key}}` in hand-written descriptions → the spec's in-text links. */
function fillLinks(text: string, links: LinkResolver): string {
  return text.replace(/\{\{(image|model):([^}]+)\}\}/g, (whole, kind: string, ref: string) => {
    const [key = '', accel, tag] = ref.split(':');
    const target = kind === 'image' ? links.image(key, accel, tag) : links.model(key);
    return target?.href ?? whole;
  });
}

/** Writes a file unless it exists: an operator's own description is never replaced. */
async function writeNew(file: string, text: string | Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  try {
    await fsp.writeFile(file, text, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/**
 * Demo catalogues for the all-in-one start: 40+ images, 40+ models and 20+ applications with labels, icons and
 * markdown descriptions. Runs only when the catalogue tables are empty, so a second start (or an operator's own
 * catalogue) is left alone.
 */
export async function seedCatalog(deps: Pick<PortalDeps, 'db' | 'config'>): Promise<void> {
  const repo = new CatalogRepository(deps.db);
  if (await repo.isEmpty()) await seedItems(deps, repo);
  await seedModelFiles(deps, repo);
}

/**
 * Gives a few demo models real files (issue 13 §3), also on a DATA_DIR seeded before model files existed: a model
 * that has files indexed already, or that an operator removed, is left alone.
 */
export async function seedModelFiles(
  deps: Pick<PortalDeps, 'config'>,
  repo: CatalogRepository,
): Promise<void> {
  const storage = new CatalogStorage(catalogStorageDir(deps));
  for (const m of demoModelFiles()) {
    const model = await repo.findModelByNameEn(m.nameEn);
    if (!model || (await repo.modelFiles(model.id)).length > 0) continue;
    const row = await repo.findById('model', model.id);
    const readme = row?.desc_file_path ? path.join(storage.root, row.desc_file_path) : null;
    const files = { ...m.files };
    if (readme && fs.existsSync(readme)) files['README.md'] = await fsp.readFile(readme);
    for (const [rel, content] of Object.entries(files)) {
      await writeNew(path.join(storage.root, m.dir, rel), content);
    }
    await indexModelFiles(repo, storage, model.id, m.dir);
  }
}

async function seedItems(deps: Pick<PortalDeps, 'db' | 'config'>, repo: CatalogRepository): Promise<void> {
  const content = findSeedContent();
  const root = catalogStorageDir(deps);
  for (const folder of ['icons', 'images']) {
    await fsp.cp(path.join(content, folder), path.join(root, folder), {
      recursive: true,
      force: false,
      errorOnExist: false,
    });
  }
  const items = demoItems();
  const ids = await repo.insertBundle({ ...dictionaryBundle(), items: items.map((d) => d.item) });
  const links = linkResolver(items, ids);
  for (const d of items) {
    const handWritten = path.join(content, 'markdown', d.handWritten);
    const text = fs.existsSync(handWritten)
      ? fillLinks(await fsp.readFile(handWritten, 'utf8'), links)
      : d.render(links) + '\n';
    await writeNew(path.join(root, d.item.desc_file_path!), text);
  }
}
