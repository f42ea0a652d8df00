import { CommonCodes, FileCodes } from '@hpc/contracts';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@hpc/server-kit';
import { PortalText } from '../../messages';

/** Markdown descriptions larger than this are refused rather than sent inside a JSON envelope. */
const MAX_MARKDOWN_BYTES = 2 * 1024 * 1024;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.txt']);

/** The image types `/catalog-files/*` serves; anything else (HTML, scripts, archives) is refused. */
export const CATALOG_IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
};

/** The catalogue storage `DATA_DIR/catalog/`: markdown descriptions, icons and their images. */
export const catalogStorageDir = (deps: { config: { dataDir: string } }): string =>
  path.join(deps.config.dataDir, 'catalog');

const isInside = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

/**
 * The catalogue storage `DATA_DIR/catalog/`: markdown descriptions, icons and the images they show. Every path a
 * client sends is resolved here and must end, after following symlinks, inside the storage.
 */
export class CatalogStorage {
  private realRoot: string | null = null;

  constructor(readonly root: string) {}

  private async rootReal(): Promise<string> {
    if (!this.realRoot) {
      await fsp.mkdir(this.root, { recursive: true });
      this.realRoot = await fsp.realpath(this.root);
    }
    return this.realRoot;
  }

  /**
   * A client path (relative to the storage, or absolute inside it) → the real path of an existing regular file.
   * NUL bytes → "1033"; `..` segments or anything that leaves the storage, symlinks included → "1030";
   * a missing file → "1020".
   */
  async resolveFile(userPath: string): Promise<{ real: string; size: number }> {
    if (userPath.includes('\0')) throw new AppError(CommonCodes.illegalParams, PortalText.pathHasNul);
    if (userPath.split(/[\\/]/).includes('..'))
      throw new AppError(FileCodes.permissionDenied, PortalText.pathHasDotDot);
    const root = path.resolve(this.root);
    const candidate = path.isAbsolute(userPath) ? path.resolve(userPath) : path.resolve(root, userPath);
    if (!isInside(root, candidate) || candidate === root) {
      throw new AppError(FileCodes.permissionDenied, PortalText.pathOutsideCatalogStorage);
    }
    let real: string;
    try {
      real = await fsp.realpath(candidate);
    } catch {
      throw new AppError(FileCodes.notFound);
    }
    if (!isInside(await this.rootReal(), real)) {
      throw new AppError(FileCodes.permissionDenied, PortalText.pathOutsideCatalogStorage);
    }
    const stat = await fsp.stat(real);
    if (!stat.isFile()) throw new AppError(FileCodes.notFound);
    return { real, size: stat.size };
  }

  /** The text of a markdown description. */
  async readMarkdown(userPath: string): Promise<string> {
    const { real, size } = await this.resolveFile(userPath);
    if (!MARKDOWN_EXTENSIONS.has(path.extname(real).toLowerCase()))
      throw new AppError(FileCodes.typeNotAllowed);
    if (size > MAX_MARKDOWN_BYTES) throw new AppError(FileCodes.previewTooLarge);
    return fsp.readFile(real, 'utf8');
  }

  /** An image of the storage as a stream, with its content type; other file types are refused ("1506"). */
  async openImage(userPath: string): Promise<{ stream: fs.ReadStream; size: number; contentType: string }> {
    const { real, size } = await this.resolveFile(userPath);
    const contentType = CATALOG_IMAGE_TYPES[path.extname(real).toLowerCase()];
    if (!contentType) throw new AppError(FileCodes.typeNotAllowed);
    if (size > MAX_IMAGE_BYTES) throw new AppError(CommonCodes.tooLarge);
    return { stream: fs.createReadStream(real), size, contentType };
  }
}
