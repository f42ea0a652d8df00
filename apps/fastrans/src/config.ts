import fs from 'node:fs';
import path from 'node:path';
import { FASTRANS_PORTS } from '@hpc/contracts';
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
  };
}
