import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { ensureDemoHome } from './demo-home';
import { PathResolver } from './path-resolver';

const SINGLE = { unix: false, minUid: 1000, refusedShells: [] };

describe('the demo homes (all-in-one demo only)', () => {
  const tmp = makeTempDir('kit-demo-home-');
  const resolver = new PathResolver(tmp.dir);
  const scope = (user: string, paths: string[] = []) => ({
    cun: user,
    home: `/public/home/${user}`,
    roots: [`/public/home/${user}`, ...paths],
  });
  afterAll(() => tmp.cleanup());

  it('makes a missing home with the samples, and the granted folders empty', async () => {
    await ensureDemoHome(resolver, scope('ann', ['/public/share/lab']), SINGLE);
    const home = resolver.hostOf('/public/home/ann');
    expect(fs.readdirSync(home).sort()).toEqual(
      expect.arrayContaining(['README.md', 'analysis.py', 'data.csv', 'job.slurm', 'projects']),
    );
    expect(fs.statSync(path.join(home, 'job.slurm')).mode & 0o111).not.toBe(0);
    expect(fs.readdirSync(resolver.hostOf('/public/share/lab'))).toEqual([]);
  });

  it("leaves an existing home alone: the user's own files are never written over", async () => {
    const home = resolver.hostOf('/public/home/bob');
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'README.md'), 'mine');
    await ensureDemoHome(resolver, scope('bob'), SINGLE);
    expect(fs.readdirSync(home)).toEqual(['README.md']);
    expect(fs.readFileSync(path.join(home, 'README.md'), 'utf8')).toBe('mine');
  });

  it('makes a home once when two services of the process ask at once (E-File and the job service)', async () => {
    const writes = vi.spyOn(fs.promises, 'writeFile');
    try {
      await Promise.all([
        ensureDemoHome(resolver, scope('cat'), SINGLE),
        ensureDemoHome(resolver, scope('cat'), SINGLE),
      ]);
      const home = resolver.hostOf('/public/home/cat');
      const samples = writes.mock.calls.filter(
        ([file]) => typeof file === 'string' && file.startsWith(home + path.sep),
      );
      expect(samples.length).toBe(
        fs.readdirSync(home, { recursive: true }).filter((f) => f.includes('.')).length,
      );
    } finally {
      writes.mockRestore();
    }
  });
});
