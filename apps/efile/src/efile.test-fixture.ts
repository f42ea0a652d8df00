import fs from 'node:fs';
import path from 'node:path';
import type { ClusterTokenClaims, OwnerRights } from '@hpc/contracts';
import type { KvStore, RevocationStore } from '@hpc/server-kit';
import { makePortalKeys, makeTempDir, signTestToken, type TestDbTarget } from '@hpc/server-kit/testing';
import { buildEfile } from './app';
import { readEfileConfig } from './config';

export const CLUSTER = 'c1';

/** The upload tests' name for the portal key pair efile trusts. */
export { makePortalKeys as makeKeys };

export interface HarnessOptions {
  env?: Record<string, string>;
  now?: () => number;
  kv?: KvStore;
  /** The portal's revocation store (tests of revocation); else the harness's own, in memory. */
  revocations?: RevocationStore;
  db?: TestDbTarget;
  /** Reuse the folder of an earlier harness (restart tests). */
  dir?: string;
}

/** What the portal would answer for the demo user's current rights, unless a test changes `h.rights`. */
export const DEMO_RIGHTS: OwnerRights = {
  cun: 'demo',
  home: '/public/home/demo',
  paths: ['/public/share/proj'],
  st: 'Normal',
  exp_acct: null,
};

/**
 * A standalone efile over a temp file-system root with a demo user's home (/public/home/demo) and a second user's
 * home, a key pair, and a token factory.
 */
export async function makeHarness(opts: HarnessOptions = {}) {
  const tmp = opts.dir
    ? { dir: opts.dir, cleanup: () => fs.rmSync(opts.dir!, { recursive: true, force: true }) }
    : makeTempDir('efile-');
  const fsRoot = path.join(tmp.dir, 'root');
  for (const d of ['public/home/demo', 'public/home/other', 'public/share/proj']) {
    fs.mkdirSync(path.join(fsRoot, d), { recursive: true });
  }
  const db = opts.db?.create() ?? { url: path.join(tmp.dir, 'efile.db'), cleanup: async () => undefined };
  const keys = await makePortalKeys();
  const config = readEfileConfig({
    EFILE_CLUSTER_ID: CLUSTER,
    DATA_DIR: path.join(tmp.dir, 'data'),
    EFILE_FS_ROOT: fsRoot,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    EFILE_SWEEP_INTERVAL_MINUTES: '0',
    ...opts.env,
  });
  if ('schema' in db && db.schema) config.databaseSchema = db.schema;
  // The portal's current rights per user (sub): DEMO_RIGHTS unless a test sets others (null = disabled or gone).
  const rights = new Map<string, OwnerRights | null>();
  const { app, deps } = await buildEfile(config, {
    jwks: () => keys.jwks,
    now: opts.now,
    kv: opts.kv,
    revocations: opts.revocations,
    ownerRights: async (sub) => (rights.has(sub) ? rights.get(sub)! : DEMO_RIGHTS),
  });
  const token = (claims: Partial<ClusterTokenClaims> = {}, ttl?: number) =>
    signTestToken(keys.privateKey, { aud: CLUSTER, paths: ['/public/share/proj'], ...claims }, ttl);
  return {
    app,
    deps,
    keys,
    rights,
    dir: tmp.dir,
    fsRoot,
    /** Host path of a cluster path. */
    host: (p: string) => path.join(fsRoot, p),
    home: path.join(fsRoot, 'public/home/demo'),
    token,
    async close(keepDir = false) {
      await app.close();
      await db.cleanup();
      if (!keepDir) tmp.cleanup();
    },
  };
}
export type Harness = Awaited<ReturnType<typeof makeHarness>>;

/**
 * A call with the cluster token through `app.inject`: a JSON body, a raw one when `payload` is a Buffer (a range),
 * none when it is undefined (a GET).
 */
export function injectAs(
  h: Harness,
  token: string,
  method: 'POST' | 'PUT' | 'GET',
  url: string,
  payload?: unknown,
) {
  return h.app.inject({
    method,
    url,
    headers: {
      token,
      'content-type': Buffer.isBuffer(payload) ? 'application/octet-stream' : 'application/json',
    },
    payload: Buffer.isBuffer(payload) ? payload : payload === undefined ? undefined : JSON.stringify(payload),
  });
}

/** Form-urlencoded body with repeated keys for arrays, as the spec's clients send it. */
export function form(params: Record<string, string | number | boolean | (string | number)[]>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) sp.append(k, String(x));
    else sp.append(k, String(v));
  }
  return sp.toString();
}
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
