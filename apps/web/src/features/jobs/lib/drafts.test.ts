import { describe, expect, it } from 'vitest';
import { appDraft, fileDraft } from './drafts';

describe("the Job form's drafts", () => {
  it("opens an application's ready job: its script and suggested resources, the rest the form's defaults", () => {
    const draft = appDraft({
      name: 'Python 3 批处理作业',
      nameEn: 'Python 3 batch job',
      jobTemplate: {
        script: '#!/bin/bash\npython3 -c "print(1)"\n',
        jobName: 'python-pi',
        nodes: 1,
        tasks: 1,
        cpusPerTask: 2,
        gpus: 0,
        timeLimitMinutes: 10,
      },
    });
    expect(draft).toEqual({
      script: '#!/bin/bash\npython3 -c "print(1)"\n',
      values: { jobName: 'python-pi', nodes: 1, tasks: 1, cpusPerTask: 2, gpus: 0, timeLimitMinutes: 10 },
      from: { kind: 'app', name: 'Python 3 批处理作业', nameEn: 'Python 3 batch job' },
    });
    // Neither account, partition nor working directory: those are the user's and the centre's.
    expect(draft!.values).not.toHaveProperty('account');
    expect(draft!.values).not.toHaveProperty('partition');
    expect(draft!.values).not.toHaveProperty('workDir');
  });

  it('keeps the defaults where the application suggests nothing, and has no draft without a ready job', () => {
    const only = appDraft({
      name: 'a',
      nameEn: 'a',
      jobTemplate: { script: '#!/bin/sh\ntrue\n', gpus: undefined },
    });
    expect(only).toMatchObject({ script: '#!/bin/sh\ntrue\n', values: {} });
    expect(appDraft({ name: 'JupyterLab', nameEn: 'JupyterLab', jobTemplate: null })).toBeNull();
  });

  it("opens E-File's script with its folder as working directory and its name as the job's", () => {
    expect(fileDraft('/public/home/demo/runs/2-md.slurm', '#!/bin/bash\n')).toEqual({
      script: '#!/bin/bash\n',
      values: { workDir: '/public/home/demo/runs', jobName: 'md' },
      from: { kind: 'file', name: '/public/home/demo/runs/2-md.slurm' },
    });
    expect(fileDraft('/public/home/demo/1.sh', '').values?.jobName).toBe('job');
  });
});
