import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { CommonCodes, FileCodes, JOB_TEMPLATE_DIR, JobTemplate, type JobTemplateEntry } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { PathResolver } from '@hpc/cluster-kit';
import { JobsText } from '../messages';
import type { JobScope } from './job-worker';
import { readSmallFile } from './small-file';

/** Most templates one user keeps (each a file of at most a script's size). */
const MAX_TEMPLATES = 200;
const MAX_TEMPLATE_BYTES = 2 * 1024 * 1024;

/**
 * Job templates as files in the user's home (`~/.hpc-portal/job-templates/<name>.json`, issue 22 §2): they follow
 * the user to every instance and node, and the user can read, copy or edit them. Read and written as the user (in
 * the user's worker); a save is a temp file renamed into place, so nothing half-written carries a template's name.
 */
export function createTemplateStore(resolver: PathResolver) {
  async function folder(scope: JobScope, create: boolean): Promise<string | null> {
    const home = await resolver.resolve(scope, scope.home, { mustExist: true });
    let dir = home.host;
    for (const seg of JOB_TEMPLATE_DIR.split('/')) {
      dir = path.join(dir, seg);
      try {
        const st = await fs.lstat(dir);
        // A link here could lead the writes anywhere the user can write: templates live in a real folder only.
        if (!st.isDirectory())
          throw new AppError(FileCodes.notAFolder, JobsText.templateDirNotAFolder(JOB_TEMPLATE_DIR));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        if (!create) return null;
        await fs.mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
        });
      }
    }
    return dir;
  }

  return {
    async list(scope: JobScope): Promise<JobTemplateEntry[]> {
      const dir = await folder(scope, false);
      if (!dir) return [];
      const out: JobTemplateEntry[] = [];
      for (const name of (await fs.readdir(dir)).filter((n) => n.endsWith('.json')).slice(0, MAX_TEMPLATES)) {
        try {
          const read = await readSmallFile(path.join(dir, name), MAX_TEMPLATE_BYTES);
          if (typeof read === 'string') continue;
          const t: unknown = JSON.parse(read.text);
          // A file the user edited by hand into something else is left out, not an error for the whole list.
          if (Value.Check(JobTemplate, t) && `${t.name}.json` === name)
            out.push({ ...t, updatedAt: read.mtimeMs });
        } catch {
          /* unreadable or not JSON: skipped */
        }
      }
      return out.sort((a, b) => a.name.localeCompare(b.name));
    },

    async save(scope: JobScope, t: JobTemplate): Promise<void> {
      const dir = (await folder(scope, true))!;
      const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json'));
      if (names.length >= MAX_TEMPLATES && !names.includes(`${t.name}.json`))
        throw new AppError(CommonCodes.invalidInput, JobsText.tooManyTemplates(String(MAX_TEMPLATES)));
      const tmp = path.join(dir, `.${crypto.randomBytes(6).toString('hex')}.tmp`);
      await fs.writeFile(tmp, JSON.stringify(t, null, 2), { mode: 0o600, flag: 'wx' });
      try {
        await fs.rename(tmp, path.join(dir, `${t.name}.json`));
      } catch (e) {
        await fs.rm(tmp, { force: true });
        throw e;
      }
    },

    async remove(scope: JobScope, name: string): Promise<void> {
      const dir = await folder(scope, false);
      if (!dir) throw new AppError(FileCodes.notFound, JobsText.noTemplate(name));
      await fs.unlink(path.join(dir, `${name}.json`)).catch((e: NodeJS.ErrnoException) => {
        throw e.code === 'ENOENT' ? new AppError(FileCodes.notFound, JobsText.noTemplate(name)) : e;
      });
    },
  };
}
