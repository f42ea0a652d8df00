import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { checkAccount, type Account, type AccountRules } from '../accounts/accounts';
import type { ServiceUser } from '../auth/token-check';
import type { PathResolver, UserScope } from './path-resolver';

/**
 * All-in-one demo only (EFILE_DEMO, JOBS_DEMO): a user's home and granted folders are made, the home with sample
 * files, on the user's first call to any of the cluster's services (E-File, the job service), whichever comes
 * first: a fresh demo's Job page may be opened before E-File ever was. Production homes exist and are never made.
 */

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

/** How demo homes are made: in unix mode given to their users, who must pass the worker rules. */
export interface DemoHomeRules extends AccountRules {
  unix: boolean;
}

/**
 * Homes being made in this process, by host path: the services of one all-in-one process (E-File and the job
 * service of the same cluster) may ask at once; the second waits for the first rather than writing the samples
 * again or finding a home that is not the user's yet.
 */
const making = new Map<string, Promise<void>>();

/**
 * Creates the user's home and granted folders when missing, and fills a new home with sample files.
 *
 * In unix mode (the all-in-one started as root with EFILE_USER_MODE=unix) the cluster user must exist on this
 * machine and pass the worker rules: an unknown one gets 601009 ("does not exist on this node") before anything is
 * made. What is made is then given to the user (home 0700), as useradd -m would: their worker, running as them,
 * must be able to work in it, and nobody else to read it.
 */
export async function ensureDemoHome(
  resolver: PathResolver,
  scope: UserScope & { home: string; cun: string },
  rules: DemoHomeRules,
): Promise<void> {
  const account = rules.unix ? checkAccount(scope.cun, rules) : null;
  for (const root of scope.roots) {
    const host = resolver.hostOf(root);
    let made = making.get(host);
    if (!made) {
      made = makeRoot(host, root === scope.home, account).finally(() => making.delete(host));
      making.set(host, made);
    }
    await made;
  }
}

async function makeRoot(host: string, isHome: boolean, account: Account | null): Promise<void> {
  const existed = await fs.stat(host).then(
    () => true,
    () => false,
  );
  if (existed) return;
  await fs.mkdir(host, { recursive: true });
  if (isHome) {
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
    if (isHome) await fs.chmod(host, 0o700);
  }
}

/**
 * The demo homes as an `onRequest` hook of a service's scope, after its token check (which only says who the user
 * is): the request's user's home and granted folders on their first request, once per user and roots. A request
 * whose folders cannot be made (an unknown cluster user in unix mode: 601009) fails here.
 */
export function demoHomesHook(o: {
  resolver: PathResolver;
  rules: DemoHomeRules;
  /** The request's verified user. */
  user: (req: FastifyRequest) => ServiceUser;
  /** Requests without a user (a health check). */
  skip?: (req: FastifyRequest) => boolean;
}) {
  const seeded = new Set<string>();
  return async (req: FastifyRequest) => {
    if (o.skip?.(req)) return;
    const user = o.user(req);
    const key = `${user.sub}|${user.roots.join('|')}`;
    if (seeded.has(key)) return;
    await ensureDemoHome(o.resolver, user, o.rules);
    seeded.add(key);
  };
}
