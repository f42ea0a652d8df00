import { isApiError } from '@hpc/api-client';
import { FileCodes } from '@hpc/contracts';
import type { EfileApi } from '../api/efile.api';
import { joinPath, keepBothName } from '../lib/paths';
import { addProblem, groupByRoot, type PickedFile, type UploadTarget } from './upload-queue';
import { chunkSizeSetting, uploadEngine } from './upload-store';

export type ConflictChoice = 'overwrite' | 'keepBoth' | 'skip';
export interface ConflictAnswer {
  choice: ConflictChoice;
  /** Apply to every remaining conflict of this batch. */
  all: boolean;
}

export interface AddContext {
  api: EfileApi;
  target: UploadTarget;
  folderFileLimit: number;
  maxChunkSize: number;
  /** Asks the user what to do with a name that exists at the target. */
  askConflict: (name: string, isDirectory: boolean) => Promise<ConflictAnswer>;
  /** Tells the user why a root was refused (key under `efile.upload.`), with its name. */
  refuse: (reason: 'duplicate' | 'folderLimit', name: string) => void;
}

const renameRoot = (rel: string, from: string, to: string) =>
  rel === from ? to : `${to}${rel.slice(from.length)}`;

/** Every folder to create for `emptyDirs`: each one and its ancestors, parents first. */
export function dirsToCreate(emptyDirs: readonly string[]): string[] {
  const all = new Set<string>();
  for (const d of emptyDirs) {
    const segs = d.split('/');
    for (let i = 1; i <= segs.length; i++) all.add(segs.slice(0, i).join('/'));
  }
  return [...all].sort((a, b) => a.split('/').length - b.split('/').length);
}

/**
 * Adds picked or dropped files to the upload list (spec §2 "Uploads"): refuses same-name rows and folders over the
 * limit, asks about names that exist at the target (overwrite, keep both as `name(1).ext`, or skip; once or for
 * all), creates empty folders with mkdir, then hands the files to the engine.
 */
export async function addToUploads(ctx: AddContext, files: PickedFile[], dirs: string[] = []): Promise<void> {
  let remembered: ConflictChoice | null = null;
  for (const root of groupByRoot(files, dirs)) {
    const problem = addProblem(
      uploadEngine.rowList(),
      { name: root.name, isFolder: root.isFolder, fileCount: root.files.length },
      ctx.target,
      ctx.folderFileLimit,
    );
    if (problem) {
      ctx.refuse(problem, root.name);
      continue;
    }
    let name = root.name;
    let overwrite = false;
    const existing = await ctx.api.exist(joinPath(ctx.target.dir, name));
    if (existing.exist) {
      let choice: ConflictChoice | null = remembered;
      if (!choice) {
        const answer = await ctx.askConflict(name, existing.isDirectory);
        choice = answer.choice;
        if (answer.all) remembered = choice;
      }
      if (choice === 'skip') continue;
      if (choice === 'overwrite') overwrite = true;
      else {
        const taken = new Set<string>([name]);
        for (;;) {
          const candidate = keepBothName(root.name, (c) => taken.has(c));
          if (!(await ctx.api.exist(joinPath(ctx.target.dir, candidate))).exist) {
            name = candidate;
            break;
          }
          taken.add(candidate);
        }
      }
    }
    const picked = root.files.map((f) => ({
      ...f,
      relativePath: renameRoot(f.relativePath, root.name, name),
    }));
    try {
      for (const d of dirsToCreate(root.emptyDirs.map((d) => renameRoot(d, root.name, name)))) {
        await ctx.api.mkdir(joinPath(ctx.target.dir, d)).catch((e: unknown) => {
          // An existing folder is what we want.
          if (!(isApiError(e) && e.code === FileCodes.sameNameDir)) throw e;
        });
      }
    } catch (e) {
      uploadEngine.addFailed(ctx.target, name, true, isApiError(e) ? e.code : 'upload');
      continue;
    }
    uploadEngine.add({
      target: ctx.target,
      name,
      isFolder: root.isFolder,
      files: picked,
      chunkSize: chunkSizeSetting(ctx.maxChunkSize),
      overwrite,
    });
  }
}
