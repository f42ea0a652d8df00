import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import type { ClusterTokenClaims } from '@hpc/contracts';
import { signClusterToken } from './auth/cluster-token';
import { dropSchema } from './db';

/**
 * A fresh temp folder, removed by the returned cleanup. The path is resolved (realpath), so code that compares
 * resolved paths against it (path confinement) sees the same string.
 */
export function makeTempDir(prefix = 'hpc-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A portal key pair for a per-cluster service started without a portal: the service trusts `jwks`, tests sign
 * tokens with `privateKey` under the key id `k1`.
 */
export async function makePortalKeys() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  const jwks: JSONWebKeySet = { keys: [jwk] };
  return { privateKey, jwks };
}

/**
 * A cluster token as the portal signs it (key id `k1` of `makePortalKeys`): the user `demo` with a home and no granted
 * folders unless `claims` says otherwise; `aud` is the service's cluster.
 */
export function signTestToken(
  privateKey: Awaited<ReturnType<typeof makePortalKeys>>['privateKey'],
  claims: Pick<ClusterTokenClaims, 'aud'> & Partial<ClusterTokenClaims>,
  ttlSeconds?: number,
): Promise<string> {
  return signClusterToken(
    privateKey,
    'k1',
    {
      sub: 'u-demo',
      cun: 'demo',
      home: '/public/home/demo',
      paths: [],
      st: 'Normal',
      exp_acct: null,
      ...claims,
    },
    ttlSeconds,
  );
}

export interface TestDbTarget {
  /** 'sqlite' or 'postgres': used in test titles. */
  name: 'sqlite' | 'postgres';
  /** Creates an isolated database for one suite and returns its url/schema and a cleanup. */
  create(): { url: string; schema?: string; cleanup: () => Promise<void> };
}

/**
 * The databases route tests run against (DESIGN.md §5.10): always a SQLite file in a temp folder, and PostgreSQL in
 * a schema of its own when TEST_DATABASE_URL is set. Use with `describe.each(testDbTargets())`.
 */
export function testDbTargets(): TestDbTarget[] {
  const targets: TestDbTarget[] = [
    {
      name: 'sqlite',
      create() {
        const { dir, cleanup } = makeTempDir();
        return { url: path.join(dir, 'test.db'), cleanup: async () => cleanup() };
      },
    },
  ];
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    targets.push({
      name: 'postgres',
      create() {
        const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
        return { url: pgUrl, schema, cleanup: () => dropSchema(pgUrl, schema) };
      },
    });
  }
  return targets;
}
