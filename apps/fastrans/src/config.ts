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
}

function readJson(file: string): Partial<ClientConfig> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ClientConfig>;
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
  const shipped = readJson(env.FASTRANS_CONFIG || path.join(exeDir, 'fastrans.json'));
  const own = readJson(path.join(dir, 'fastrans.json'));
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
  };
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
