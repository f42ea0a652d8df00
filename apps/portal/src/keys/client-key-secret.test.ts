import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import {
  CLIENT_KEY_SECRET_FILE,
  clientKeyOf,
  clientProof,
  openClientKeySecret,
  verifyClientProof,
} from './client-key-secret';
import { listSigningKeys } from './signing-keys';

describe("the secret of the users' fast-transfer client keys", () => {
  let tmp: ReturnType<typeof makeTempDir> | null = null;
  afterEach(() => {
    tmp?.cleanup();
    tmp = null;
  });

  it('is made once (0600) beside the signing keys and read back by a restart or another instance', () => {
    tmp = makeTempDir('client-key-secret-');
    const dir = path.join(tmp.dir, 'keys');
    const first = openClientKeySecret(dir);
    expect(first.length).toBe(32);
    expect(fs.statSync(path.join(dir, CLIENT_KEY_SECRET_FILE)).mode & 0o777).toBe(0o600);
    expect(openClientKeySecret(dir).equals(first)).toBe(true);
    // Not taken for a signing key, and no temporary file left.
    expect(listSigningKeys(dir)).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([CLIENT_KEY_SECRET_FILE]);
  });

  it('derives one key per user; a proof verifies for its user only, in constant time', () => {
    const secret = Buffer.alloc(32, 7);
    const demo = clientKeyOf(secret, 1);
    expect(clientKeyOf(secret, 1).equals(demo)).toBe(true);
    expect(clientKeyOf(secret, 2).equals(demo)).toBe(false);
    expect(clientKeyOf(Buffer.alloc(32, 8), 1).equals(demo)).toBe(false);
    const proof = clientProof(demo, 'sign');
    expect(verifyClientProof(secret, 1, 'sign', proof)).toBe(true);
    expect(verifyClientProof(secret, 2, 'sign', proof)).toBe(false);
    expect(verifyClientProof(secret, 1, 'other', proof)).toBe(false);
    expect(verifyClientProof(secret, 1, 'sign', '')).toBe(false);
    expect(verifyClientProof(secret, 1, 'sign', proof.slice(1))).toBe(false);
    // A revoked key's generation: generation 0 is the key of before revocation existed; each later one differs, and
    // a proof of one generation is not one of another.
    expect(clientKeyOf(secret, 1, 0).equals(demo)).toBe(true);
    const next = clientKeyOf(secret, 1, 1);
    expect(next.equals(demo)).toBe(false);
    expect(clientKeyOf(secret, 1, 2).equals(next)).toBe(false);
    // "1" + ":1" must not be user 11's key or any other user's of another generation.
    expect(clientKeyOf(secret, 11).equals(next)).toBe(false);
    expect(verifyClientProof(secret, 1, 'sign', proof, 1)).toBe(false);
    expect(verifyClientProof(secret, 1, 'sign', clientProof(next, 'sign'), 1)).toBe(true);
  });
});
