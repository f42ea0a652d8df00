import type { AppDetail } from '@hpc/contracts';
import { folderOf } from './job-format';
import type { SubmitValues } from './submit-rules';

/** What the form opens with: a script file from E-File, an application's ready job. */
export interface SubmitDraft {
  values?: Partial<SubmitValues>;
  script?: string;
  /**
   * Where it came from, said above the form: a file's path, or an application's name (`nameEn` its English name,
   * so that a change of language changes the line, not the draft, which would put the form back).
   */
  from?: { kind: 'file' | 'app'; name: string; nameEn?: string };
}

/**
 * E-File's "submit as job": the file's text, its folder as the working directory, its name (made a job name: a
 * letter or Chinese first, then letters, digits, Chinese, `_` and `-`) as the job's name.
 */
export function fileDraft(scriptPath: string, content: string): SubmitDraft {
  const base = scriptPath.split('/').pop() ?? 'job';
  const name = base
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9\u4e00-\u9fa5_-]/g, '_')
    .replace(/^[^A-Za-z\u4e00-\u9fa5]+/, '');
  return {
    script: content,
    values: { workDir: folderOf(scriptPath), jobName: name || 'job' },
    from: { kind: 'file', name: scriptPath },
  };
}

/**
 * The application centre's "run this application": the application's ready job, its script and the resources it
 * suggests (what it leaves out keeps the form's defaults: account, partition, the home as working directory); null
 * for an application without one.
 */
export function appDraft(app: Pick<AppDetail, 'name' | 'nameEn' | 'jobTemplate'>): SubmitDraft | null {
  if (!app.jobTemplate) return null;
  const { script, ...suggested } = app.jobTemplate;
  // A field given as undefined would put the form's default out: only those the application sets.
  const values = Object.fromEntries(
    Object.entries(suggested).filter(([, v]) => v !== undefined),
  ) as Partial<SubmitValues>;
  return { script, values, from: { kind: 'app', name: app.name, nameEn: app.nameEn } };
}
