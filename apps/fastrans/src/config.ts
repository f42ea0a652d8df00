import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FASTRANS_PORTS } from '@hpc/contracts';
import type { FastransClientWho } from '@hpc/api-client';
import { configDir } from './store/history';

/**
 * The client's settings: `fastrans.json` beside the executable (the package ships it with the origin of the portal it
 * was downloaded from), overridden by the one in the user's config folder, then by the environment.
 */
export interface ClientConfig {
  /** The portal's origin, e.g. https://portal.example.org: the web server and the first allowed page origin. */
  portal: string;
  /** Page origins allowed to drive the client (the portal's is always allowed). */
  allowedOrigins: string[];
  ports: number[];
  configDir: string;
  /**
   * How the portal names this machine when the user's clients run on several (the page's choice of machine when
   * it works through the relay): `label` in fastrans.json or FASTRANS_LABEL, else the host name.
   */
  label: string;
  /**
   * The user's client key (base64url), from the package the user downloaded while logged in to the portal: the
   * answer to the page's `check` proves it (`proof`), so the page tells its user's client from another account's
   * program on the port (docs/FASTRANS.md "Security"). Kept in the config folder (`client-key`, 0600) once seen.
   */
  clientKey?: string;
  /** The package's `fastrans.json` holding the key can be read by other accounts (a warning at start). */
  clientKeyExposed?: string;
}

type ConfigFile = Partial<ClientConfig>;

function readJson(file: string): ConfigFile {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as ConfigFile;
  } catch {
    return {};
  }
}

const originOf = (u: string) => {
  try {
    return new URL(u).origin;
  } catch {
    return '';
  }
};

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  exeDir = path.dirname(process.execPath),
): ClientConfig {
  const dir = env.FASTRANS_CONFIG_DIR || configDir(env);
  const shippedFile = env.FASTRANS_CONFIG || path.join(exeDir, 'fastrans.json');
  const shipped = readJson(shippedFile);
  const own = readJson(path.join(dir, 'fastrans.json'));
  const clientKey = keptClientKey(dir, shipped.clientKey);
  const merged = { ...shipped, ...own };
  const portal = originOf(env.FASTRANS_PORTAL || merged.portal || '');
  const ports = env.FASTRANS_PORTS
    ? env.FASTRANS_PORTS.split(',').map((p) => Number(p.trim()))
    : (merged.ports ?? [...FASTRANS_PORTS]);
  const allowed = [
    portal,
    ...(merged.allowedOrigins ?? []),
    ...(env.FASTRANS_ALLOWED_ORIGINS?.split(',') ?? []),
  ]
    .map(originOf)
    .filter((o) => o !== '');
  return {
    portal,
    allowedOrigins: [...new Set(allowed)],
    ports: ports.filter((p) => Number.isInteger(p) && p >= 0 && p < 65536),
    configDir: dir,
    label: (env.FASTRANS_LABEL || merged.label || os.hostname()).trim().slice(0, 64),
    ...(clientKey ? { clientKey } : {}),
    ...(clientKey && shipped.clientKey && readableByOthers(shippedFile)
      ? { clientKeyExposed: shippedFile }
      : {}),
  };
}

const CLIENT_KEY = /^[A-Za-z0-9_-]{43}$/;

function readableByOthers(file: string): boolean {
  try {
    return process.platform !== 'win32' && (fs.statSync(file).mode & 0o044) !== 0;
  } catch {
    return false;
  }
}

/**
 * The client key: the package's (a new download replaces the one kept), copied into the config folder's
 * `client-key` (mode 0600), so later starts do not depend on the package's file; else the one kept there.
 */
export function keptClientKey(dir: string, shipped: unknown): string | undefined {
  const file = path.join(dir, 'client-key');
  let kept: string | undefined;
  try {
    kept = fs.readFileSync(file, 'utf8').trim();
  } catch {
    kept = undefined;
  }
  if (kept !== undefined && !CLIENT_KEY.test(kept)) kept = undefined;
  if (typeof shipped !== 'string' || !CLIENT_KEY.test(shipped)) return kept;
  if (shipped !== kept) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, shipped + '\n', { mode: 0o600 });
      fs.chmodSync(tmp, 0o600);
      fs.renameSync(tmp, file);
    } catch {
      // A config folder that cannot be written: the package's key still serves this start.
    }
  }
  return shipped;
}

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * This client's identity on the portal: a random id made on the first run and kept in the config folder
 * (`client-id`, beside the login and the history), and the machine's name (`label`). A user may run clients on several
 * machines; the relay hands each only the page's actions meant for it. Made with an exclusive create, so two
 * clients started at once on one config folder end up with the same id.
 */
export function clientWho(dir: string, label = os.hostname()): FastransClientWho {
  const file = path.join(dir, 'client-id');
  const read = () => {
    try {
      const id = fs.readFileSync(file, 'utf8').trim();
      return CLIENT_ID.test(id) ? id : null;
    } catch {
      return null;
    }
  };
  let id = read();
  if (!id) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const made = crypto.randomBytes(16).toString('base64url');
    try {
      fs.writeFileSync(file, made + '\n', { flag: 'wx', mode: 0o600 });
      id = made;
    } catch {
      // Another start made it first; or the file is damaged, and this run's id replaces it.
      id = read();
      if (!id) {
        fs.writeFileSync(file, made + '\n', { mode: 0o600 });
        id = made;
      }
    }
  }
  return { client: id, label: label.slice(0, 64) };
}
