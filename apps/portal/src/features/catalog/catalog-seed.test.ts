import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { AppJobTemplate } from '@hpc/contracts';
import { migrate, openDb, type Db } from '@hpc/server-kit';
import { makeTempDir, testDbTargets } from '@hpc/server-kit/testing';
import { readPortalConfig } from '../../config';
import type { PortalDatabase } from '../../db/database';
import { migrations } from '../../db/migrations';
import { CatalogRepository } from './catalog.repository';
import { findSeedContent, seedCatalog } from './catalog.seed';

describe.each(testDbTargets())('demo catalogue seed ($name)', (target) => {
  let db: Db<PortalDatabase>;
  let cleanupDb: () => Promise<void>;
  const tmp = makeTempDir('hpc-catalog-seed-');
  const deps = () => ({ db: db.kysely, config: readPortalConfig({ DATA_DIR: tmp.dir }) });
  const count = async (kind: 'image' | 'model' | 'app') =>
    (await db.kysely.selectFrom('catalog_item').select('id').where('kind', '=', kind).execute()).length;

  beforeAll(async () => {
    const created = target.create();
    cleanupDb = created.cleanup;
    db = await openDb<PortalDatabase>({ url: created.url, schema: created.schema });
    await migrate(db, migrations);
    await seedCatalog(deps());
  });
  afterAll(async () => {
    await db?.close();
    await cleanupDb?.();
    tmp.cleanup();
  });

  it('seeds at least 40 images over GPU, DCU and CPU, 40 models and 20 applications', async () => {
    expect(await count('image')).toBeGreaterThanOrEqual(40);
    expect(await count('model')).toBeGreaterThanOrEqual(40);
    expect(await count('app')).toBeGreaterThanOrEqual(20);
    const rows = await db.kysely.selectFrom('catalog_item').selectAll().execute();
    expect(new Set(rows.filter((r) => r.kind === 'image').map((r) => r.accelerator_type))).toEqual(
      new Set(['GPU', 'DCU', 'CPU']),
    );
    for (const r of rows) {
      expect([r.name, r.name_en, r.description, r.description_en].every((t) => t.length > 0)).toBe(true);
    }
    // Most have an icon, some do not (the web shows its fallback).
    const withIcon = rows.filter((r) => r.icon).length;
    expect(withIcon).toBeGreaterThan(rows.length / 2);
    expect(withIcon).toBeLessThan(rows.length);
    const times = rows.map((r) => Number(r.created_at));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(365 * 24 * 3600 * 1000);
  });

  it('writes a markdown description per item with a table, code, an image and resolved cross links', async () => {
    const repo = new CatalogRepository(db.kysely);
    const rows = await db.kysely.selectFrom('catalog_item').selectAll().execute();
    const root = path.join(tmp.dir, 'catalog');
    for (const r of rows) {
      const text = fs.readFileSync(path.join(root, r.desc_file_path!), 'utf8');
      expect(text).toMatch(/^# /);
      expect(text).toContain('| --- |');
      expect(text).toContain('```bash');
      expect(text).toMatch(/!\[[^\]]*\]\(\/catalog-files\/images\/[\w-]+\.(svg|png)\)/);
      expect(text).toMatch(/\]\(https?:\/\//);
      expect(text).not.toContain('{{');
      for (const m of text.matchAll(/\]\(\/catalog-files\/([^)]+)\)/g))
        expect(fs.existsSync(path.join(root, m[1]!))).toBe(true);
      if (r.icon) expect(fs.existsSync(path.join(root, r.icon))).toBe(true);
    }
    const qwen = rows.find((r) => r.name_en === 'Qwen2.5-7B-Instruct')!;
    const qwenText = fs.readFileSync(path.join(root, qwen.desc_file_path!), 'utf8');
    const imageLink = /\(\/image\/(\d+)#[^)]+\)/.exec(qwenText);
    expect(imageLink).not.toBeNull();
    const linked = await repo.findImageRoute({ createTime: Number(imageLink![1]) });
    expect(linked?.image_name).toMatch(/^llm\/vllm:/);
    const modelLink = /\(\/model-zoo\/(\d+)#[^)]+\)/.exec(qwenText);
    expect((await repo.findById('model', Number(modelLink![1])))?.name_en).toMatch(/^Qwen2\.5/);
  });

  it('gives a few batch applications a ready job of the contract, one runnable as it is on the demo Slurm', async () => {
    const rows = await db.kysely.selectFrom('catalog_item').selectAll().execute();
    const withJob = rows.filter((r) => r.job_template !== null);
    expect(withJob.every((r) => r.kind === 'app')).toBe(true);
    expect(withJob.map((r) => r.name_en).sort()).toEqual(['GROMACS', 'LAMMPS', 'Python 3 batch job']);
    for (const r of withJob) {
      const job: unknown = JSON.parse(r.job_template!);
      expect(Value.Check(AppJobTemplate, job), r.name_en).toBe(true);
      expect((job as AppJobTemplate).script).toMatch(/^#!\/bin\/bash\n/);
    }
    // The demo cluster has no GROMACS or LAMMPS, but python3 of the system: one CPU, the demo partitions' limits.
    const python = JSON.parse(withJob.find((r) => r.name_en === 'Python 3 batch job')!.job_template!);
    expect(python).toMatchObject({ nodes: 1, tasks: 1, cpusPerTask: 1, gpus: 0 });
    expect(python.timeLimitMinutes).toBeLessThanOrEqual(30);
    expect(python.script).not.toMatch(/module load|srun/);
  });

  it('leaves a seeded (or operator-filled) catalogue alone on the next start', async () => {
    const before = await count('model');
    const file = path.join(tmp.dir, 'catalog', 'markdown', 'models', 'qwen2.5-7b-instruct.md');
    fs.writeFileSync(file, '# edited by the operator\n');
    await seedCatalog(deps());
    expect(await count('model')).toBe(before);
    expect(fs.readFileSync(file, 'utf8')).toBe('# edited by the operator\n');
  });
});

describe('findSeedContent', () => {
  it('finds the seed content from the source folder and from the bundles of portal and all-in-one', () => {
    const here = path.dirname(new URL(import.meta.url).pathname);
    const expected = path.join(here, 'seed-content');
    const repoRoot = path.resolve(here, '../../../../..');
    expect(findSeedContent(here)).toBe(expected);
    expect(findSeedContent(path.join(repoRoot, 'apps/portal/dist'))).toBe(expected);
    expect(findSeedContent(path.join(repoRoot, 'apps/all-in-one/dist'))).toBe(expected);
    expect(() => findSeedContent('/')).toThrow(/not found/);
  });
});
