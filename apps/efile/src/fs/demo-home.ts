import fs from 'node:fs/promises';
import path from 'node:path';
import type { EfileConfig } from '../config';
import { checkAccount, parseShells, type Account, type PathResolver, type UserScope } from '@hpc/cluster-kit';

// A 1×1 PNG: enough for the image preview to show something real.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const SAMPLES: Record<string, string | Buffer> = {
  'README.md':
    '# 欢迎使用 E-File\n\n这是演示集群上的家目录。您可以上传、下载、预览、编辑和分享文件。\n\n' +
    '# Welcome to E-File\n\nThis is your home folder on the demo cluster. Upload, download, preview, edit and share files.\n',
  'analysis.py':
    '#!/usr/bin/env python3\n"""Mean of the values column of data.csv."""\nimport csv\n\n' +
    'with open("data.csv") as f:\n    rows = list(csv.DictReader(f))\nprint(sum(float(r["value"]) for r in rows) / len(rows))\n',
  'job.slurm':
    // Runs as it is on the one-machine cluster of `npm run start:cluster` (one task: its node has 2 CPUs; no modules).
    '#!/bin/bash\n#SBATCH -J demo\n#SBATCH -p normal\n#SBATCH -N 1\n#SBATCH -n 1\n#SBATCH -t 00:10:00\n\n' +
    'python3 analysis.py\n',
  'data.csv': 'step,value\n1,0.52\n2,0.61\n3,0.58\n4,0.73\n5,0.69\n',
  'logo.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="8" fill="#1677ff"/>' +
    '<text x="32" y="40" font-size="20" text-anchor="middle" fill="#fff">HPC</text></svg>\n',
  'pixel.png': PNG,
  'projects/demo/notes.txt': 'Nested folder sample / 嵌套文件夹示例\n',
};

/** Gives a freshly made tree to its user: lchown of every entry (never following a link). */
async function giveTo(host: string, a: Account): Promise<void> {
  await fs.lchown(host, a.uid, a.gid);
  const st = await fs.lstat(host);
  if (!st.isDirectory()) return;
  for (const name of await fs.readdir(host)) await giveTo(path.join(host, name), a);
}

/**
 * All-in-one demo only (EFILE_DEMO): creates the user's home and granted folders when missing, and fills a new
 * home with sample files. Production homes exist already and are never created.
 *
 * In unix mode (the all-in-one started as root with EFILE_USER_MODE=unix) the cluster user must exist on this
 * machine and pass the worker rules: an unknown one gets 601009 ("does not exist on this node") before anything is
 * made. What is made is then given to the user (home 0700), as useradd -m would: their worker, running as them,
 * must be able to work in it, and nobody else to read it.
 */
export async function ensureDemoHome(
  resolver: PathResolver,
  scope: UserScope & { home: string; cun: string },
  config: Pick<EfileConfig, 'EFILE_USER_MODE' | 'EFILE_MIN_UID' | 'EFILE_REFUSED_SHELLS'>,
): Promise<void> {
  const account =
    config.EFILE_USER_MODE === 'unix'
      ? checkAccount(scope.cun, {
          minUid: config.EFILE_MIN_UID,
          refusedShells: parseShells(config.EFILE_REFUSED_SHELLS),
        })
      : null;
  for (const root of scope.roots) {
    const host = resolver.hostOf(root);
    const existed = await fs.stat(host).then(
      () => true,
      () => false,
    );
    if (existed) continue;
    await fs.mkdir(host, { recursive: true });
    if (root === scope.home) {
      for (const [rel, content] of Object.entries(SAMPLES)) {
        const file = path.join(host, rel);
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, content, {
          mode: rel.endsWith('.slurm') || rel.endsWith('.py') ? 0o755 : 0o644,
        });
      }
    }
    if (account) {
      await giveTo(host, account);
      if (root === scope.home) await fs.chmod(host, 0o700);
    }
  }
}
