import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PublicJwks } from '@hpc/contracts';
import type { PortalConfig } from '../config';

/**
 * The Ed25519 keys that sign per-cluster tokens, one PKCS#8 PEM file per key in a folder (mode 0700, files 0600).
 * The key id is the file name: `<UTC timestamp>-<random>`, so the newest key sorts last and signs; every key in the
 * folder is published in the JWKS so tokens signed before a rotation still verify until the key is retired.
 * The folder is re-read at most once a minute, so a rotation done with the admin CLI (or by another instance on a
 * shared folder) is picked up without a restart.
 */
export interface SigningKeys {
  /** The newest key: what new tokens are signed with. */
  active(): { kid: string; privateKey: KeyObject };
  jwks(): PublicJwks;
  /** Re-reads the folder now. */
  reload(): void;
}

const RELOAD_MS = 60_000;

/** SIGNING_KEYS_DIR, else DATA_DIR/keys. */
export const signingKeysDir = (config: Pick<PortalConfig, 'SIGNING_KEYS_DIR' | 'dataDir'>): string =>
  config.SIGNING_KEYS_DIR || path.join(config.dataDir, 'keys');
const KEY_FILE = /^(\d{14}-[0-9a-f]{8})\.pem$/;

interface LoadedKey {
  kid: string;
  privateKey: KeyObject;
  jwk: PublicJwks['keys'][number];
}

function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates a new key in `dir` and returns its id; it becomes the active key (rotation). */
export function createSigningKey(dir: string, now = new Date()): string {
  ensureDir(dir);
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const kid = `${stamp}-${crypto.randomBytes(4).toString('hex')}`;
  const { privateKey } = crypto.generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' });
  // Written under a temporary name and renamed, so a concurrent reader never sees half a key.
  const tmp = path.join(dir, `.${kid}.tmp`);
  fs.writeFileSync(tmp, pem, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, path.join(dir, `${kid}.pem`));
  return kid;
}

/** The key ids in `dir`, oldest first. */
export function listSigningKeys(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => KEY_FILE.exec(f)?.[1])
    .filter((k): k is string => k !== undefined)
    .sort();
}

/** Deletes a key: tokens it signed stop verifying. Refuses to delete the last one. */
export function retireSigningKey(dir: string, kid: string): void {
  const kids = listSigningKeys(dir);
  if (!kids.includes(kid)) throw new Error(`no key ${kid} in ${dir}`);
  if (kids.length === 1) throw new Error('refusing to retire the only key: rotate first');
  fs.rmSync(path.join(dir, `${kid}.pem`));
}

function loadKey(dir: string, kid: string): LoadedKey {
  const file = path.join(dir, `${kid}.pem`);
  const privateKey = crypto.createPrivateKey(fs.readFileSync(file));
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 key`);
  const {
    kty = 'OKP',
    crv = 'Ed25519',
    x = '',
  } = crypto.createPublicKey(privateKey).export({ format: 'jwk' });
  return { kid, privateKey, jwk: { kty, crv, x, kid, alg: 'EdDSA', use: 'sig' } };
}

/** Opens the key folder, creating the first key when there is none (first start). */
export function openSigningKeys(dir: string, clock: () => number = Date.now): SigningKeys {
  ensureDir(dir);
  const cache = new Map<string, LoadedKey>();
  let loaded: LoadedKey[] = [];
  let loadedAt = 0;

  const reload = () => {
    let kids = listSigningKeys(dir);
    if (kids.length === 0) {
      createSigningKey(dir);
      kids = listSigningKeys(dir);
    }
    loaded = kids.map((kid) => {
      let key = cache.get(kid);
      if (!key) {
        key = loadKey(dir, kid);
        cache.set(kid, key);
      }
      return key;
    });
    for (const kid of cache.keys()) if (!kids.includes(kid)) cache.delete(kid);
    loadedAt = clock();
  };
  const fresh = () => {
    if (clock() - loadedAt > RELOAD_MS) reload();
    return loaded;
  };
  reload();

  return {
    active() {
      const key = fresh().at(-1)!;
      return { kid: key.kid, privateKey: key.privateKey };
    },
    jwks: () => ({ keys: fresh().map((k) => ({ ...k.jwk })) }),
    reload,
  };
}
