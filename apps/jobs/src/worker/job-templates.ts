import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import {
  CommonCodes,
  FileCodes,
  JOB_TEMPLATE_DIR,
  JobTemplate,
  TemplateName,
  type JobTemplateEntry,
  type JobTemplateSummary,
} from '@hpc/contracts';
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
    /**
     * The names only, from the folder's entries and a look at each (no file is opened, so a FIFO or a link under a
     * name holds nothing): a few KB whatever the files hold. The template itself is read when chosen (`get`).
     */
    async list(scope: JobScope): Promise<JobTemplateSummary[]> {
      const dir = await folder(scope, false);
      if (!dir) return [];
      const out: JobTemplateSummary[] = [];
      for (const file of (await fs.readdir(dir)).filter((n) => n.endsWith('.json')).slice(0, MAX_TEMPLATES)) {
        const name = file.slice(0, -'.json'.length);
        if (!Value.Check(TemplateName, name)) continue;
        const st = await fs.lstat(path.join(dir, file)).catch(() => null);
        // A FIFO, a link or a folder under a template's name is not a template: left out, not an error.
        if (st?.isFile()) out.push({ name, updatedAt: Math.trunc(st.mtimeMs) });
      }
      return out.sort((a, b) => a.name.localeCompare(b.name));
    },

    /** One template, read as it is when opened (never through a link, never blocking on a FIFO), and checked. */
    async get(scope: JobScope, name: string): Promise<JobTemplateEntry> {
      const dir = await folder(scope, false);
      if (!dir) throw new AppError(FileCodes.notFound, JobsText.noTemplate(name));
      const read = await readSmallFile(path.join(dir, `${name}.json`), MAX_TEMPLATE_BYTES).catch(
        (e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') throw new AppError(FileCodes.notFound, JobsText.noTemplate(name));
          throw e;
        },
      );
      if (read === 'not-a-file') throw new AppError(FileCodes.notFound, JobsText.noTemplate(name));
      if (read === 'too-large')
        throw new AppError(CommonCodes.invalidInput, JobsText.templateUnreadable(name));
      let t: unknown;
      try {
        t = JSON.parse(read.text);
      } catch {
        t = null;
      }
      // A file the user edited by hand into something else: said so, the file left as it is.
      if (!Value.Check(JobTemplate, t) || t.name !== name)
        throw new AppError(CommonCodes.invalidInput, JobsText.templateUnreadable(name));
      return { ...t, updatedAt: Math.trunc(read.mtimeMs) };
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
