import fs from 'node:fs/promises';
import path from 'node:path';
import { FastransCodes, CommonCodes } from '@hpc/contracts';
import { request } from './transfer/http';
import { Remote } from './transfer/remote';
import { writeAtomic } from './store/history';
import { CLIENT_VERSION } from './version';

export interface LoginInfo {
  portal: string;
  clusterId: string;
  clusterUserName: string;
  homePath: string;
  expiresAt: number;
  servers: string[];
}

/** A result code of the fast-transfer web server or the client (spec §8 client codes). */
export class ClientError extends Error {
  constructor(
    readonly code: string,
    msg: string,
    readonly data: unknown = null,
  ) {
    super(msg);
  }
}

let seq = 0;
async function web<T>(portal: string, body: Record<string, unknown>, token?: string): Promise<T> {
  const r = await request(`${portal}/fastrans/api${token ? `?token=${encodeURIComponent(token)}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: ++seq, version: CLIENT_VERSION, ...body }),
    timeoutMs: 30_000,
  }).catch((e: Error) => {
    throw new ClientError(FastransCodes.timeout, `The portal does not answer: ${e.message}`);
  });
  let env: { code: string; msg: string; data: T };
  try {
    env = JSON.parse(r.body.toString('utf8')) as typeof env;
  } catch {
    throw new ClientError('1000', `The fast-transfer web server answered HTTP ${r.status}`);
  }
  if (env.code !== '0') throw new ClientError(env.code, env.msg, env.data);
  return env.data;
}

/**
 * The login of the client: the day token the page (or the command line) hands over is checked by the portal's web
 * server, which answers the cluster's efile instances. The token is kept in the config folder (mode 0600) so that a
 * restarted client resumes its tasks; it is never written to a log.
 */
export class Session {
  info: LoginInfo | null = null;
  remote: Remote | null = null;
  private webToken: string | null = null;
  private uk: string | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Told of every login (the portal and its web token) and logout: the relay polls while logged in. */
  onChange: (web: { portal: string; token: string } | null) => void = () => undefined;

  constructor(private readonly configDir: string) {}

  private get file() {
    return path.join(this.configDir, 'session.json');
  }

  async login(portal: string, uk: string, persist = true): Promise<LoginInfo> {
    const me = await web<{
      token: string;
      clusterId: string;
      clusterUserName: string;
      homePath: string;
      expiresAt: number;
    }>(portal, { module: 'user', action: 'login', UK: uk });
    const { servers } = await web<{ servers: { url: string }[] }>(
      portal,
      { module: 'server', action: 'list' },
      me.token,
    );
    const urls = servers.map((s) => new URL(s.url, portal + '/').toString().replace(/\/$/, ''));
    if (urls.length === 0)
      throw new ClientError(CommonCodes.noChange, 'No file service is enabled on the cluster');
    this.webToken = me.token;
    this.uk = uk;
    this.remote = new Remote(urls, uk);
    this.info = {
      portal,
      clusterId: me.clusterId,
      clusterUserName: me.clusterUserName,
      homePath: me.homePath,
      expiresAt: me.expiresAt,
      servers: urls,
    };
    if (persist) await writeAtomic(this.file, JSON.stringify({ portal, uk }));
    this.startHeartbeat();
    this.onChange({ portal, token: me.token });
    return this.info;
  }

  /** The login of the last run, when its day token is still valid. */
  async restore(): Promise<LoginInfo | null> {
    try {
      const { portal, uk } = JSON.parse(await fs.readFile(this.file, 'utf8')) as {
        portal: string;
        uk: string;
      };
      return await this.login(portal, uk, false);
    } catch {
      return null;
    }
  }

  private startHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    const beat = () => {
      if (this.info && this.webToken)
        void web(this.info.portal, { module: 'client', action: 'heartbeat' }, this.webToken).catch(
          () => undefined,
        );
    };
    beat();
    this.heartbeat = setInterval(beat, 30_000);
    this.heartbeat.unref();
  }

  async logout(): Promise<void> {
    if (this.info && this.webToken)
      await web(this.info.portal, { module: 'user', action: 'logout' }, this.webToken).catch(() => undefined);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.info = null;
    this.remote = null;
    this.webToken = null;
    this.uk = null;
    this.onChange(null);
    await fs.rm(this.file, { force: true });
  }

  close() {
    if (this.heartbeat) clearInterval(this.heartbeat);
  }
}
