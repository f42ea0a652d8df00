import { CommonCodes, FileCodes, PortalCodes } from '@hpc/contracts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ModelFile } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { CatalogStorage } from './catalog-storage';
import type { CatalogRepository } from './catalog.repository';
import type { CatalogModelFileTable } from '../../db/tables/catalog.tables';
import { PortalText } from '../../messages';

/** sha256 (hex) and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Indexes the files under `dir` (relative to the catalogue storage) as the files of a model: regular files only
 * (links and devices are left out, so a link cannot publish a file from outside), each with its sha256, computed
 * here once rather than on every view.
 */
export async function indexModelFiles(
  repo: CatalogRepository,
  storage: CatalogStorage,
  itemId: number,
  dir: string,
): Promise<number> {
  const root = path.join(storage.root, dir);
  const rows: Omit<CatalogModelFileTable, 'item_id'>[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const e of await fsp.readdir(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(child);
      else if (e.isFile()) {
        const { sha256, size } = await hashFile(path.join(root, child));
        rows.push({ path: child, stored_path: `${dir}/${child}`, size, sha256 });
      }
    }
  };
  await walk('');
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  await repo.replaceModelFiles(itemId, rows);
  return rows.length;
}

/** A model file opened for reading, checked against what was indexed. */
export interface OpenedModelFile {
  path: string;
  name: string;
  size: number;
  sha256: string;
  stream: fs.ReadStream;
}

/** The model zoo's file view: the files of a model, and one of them as a download. */
export class ModelFilesService {
  constructor(
    private readonly repo: CatalogRepository,
    private readonly storage: CatalogStorage,
  ) {}

  private async model(id: number) {
    const row = await this.repo.findById('model', id);
    if (!row) throw new AppError(PortalCodes.notFound, PortalText.noModelWithId(id));
    return row;
  }

  async list(id: number): Promise<{ files: ModelFile[]; totalSize: number }> {
    await this.model(id);
    const rows = await this.repo.modelFiles(id);
    return {
      files: rows.map((r) => ({ path: r.path, size: r.size, sha256: r.sha256 })),
      totalSize: rows.reduce((n, r) => n + r.size, 0),
    };
  }

  /** Rows of the model's files, for the copy (404 for an unknown model). */
  async rows(id: number): Promise<CatalogModelFileTable[]> {
    await this.model(id);
    return this.repo.modelFiles(id);
  }

  /**
   * Opens a file of the model by its path in the file list: only listed files are served (the path is a key, never
   * joined onto a folder), and the stored file must still have the indexed size ("1010" when it changed since).
   */
  async open(id: number, filePath: string): Promise<OpenedModelFile> {
    await this.model(id);
    const row = await this.repo.modelFile(id, filePath);
    if (!row) throw new AppError(FileCodes.notFound);
    return this.openRow(row);
  }

  async openRow(row: CatalogModelFileTable): Promise<OpenedModelFile> {
    const { real, size } = await this.storage.resolveFile(row.stored_path);
    if (size !== row.size)
      throw new AppError(CommonCodes.verificationFailed, PortalText.fileChangedSinceIndexed(row.path));
    return {
      path: row.path,
      name: path.posix.basename(row.path),
      size: row.size,
      sha256: row.sha256,
      stream: fs.createReadStream(real, { highWaterMark: 1024 * 1024 }),
    };
  }
}

/** The model zoo's files over the catalogue's repository and storage (the factory every feature's service has). */
export function createModelFilesService(repo: CatalogRepository, storage: CatalogStorage): ModelFilesService {
  return new ModelFilesService(repo, storage);
}
