import fs from 'node:fs/promises';
import path from 'node:path';
import {
  FastransCodes,
  FastransRefusal,
  CommonCodes,
  Refusal,
  type FastransLocalLogin,
} from '@hpc/contracts';
import {
  ApiClient,
  ApiError,
  fastransWebApi,
  type FastransClientWho,
  type FastransWebCalls,
} from '@hpc/api-client';
import { nodeFetch } from './transfer/http';
import { Remote } from './transfer/remote';
import { writeAtomic } from './store/history';
import { CLIENT_VERSION } from './version';
import { FastransText } from './messages';

/** Where the client is logged in: what its `login` action answers the page (contracts' local action table). */
export type LoginInfo = FastransLocalLogin;

/** After a failed renewal of the web login, the relay polls again this much later. */
const RENEW_RETRY_MS = 60_000;

/** A result code of the fast-transfer web server or the client (spec §8 client codes). */
export class ClientError extends Refusal {}

/**
 * The portal's fast-transfer web server at `portal`, through the typed calls of `@hpc/api-client`. 30 s to answer:
 * nothing flows before the answer, so the deadline is the inactivity limit it always was. `who` (`clientWho` of
 * config.ts) names this client on every call.
 */
export const webServer = (portal: string, who?: FastransClientWho) =>
  fastransWebApi(
    new ApiClient({ baseUrl: portal, timeoutMs: 30_000, fetch: nodeFetch() }),
    CLIENT_VERSION,
    who,
  );

/** A web server call with its failures as the client's result codes (spec §8). */
async function web<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.kind === 'api') throw new ClientError(e.code, e.msg, e.data);
    if (e.kind === 'http')
      throw new ClientError(FastransCodes.webServerHttp, FastransText.webServerHttp(String(e.status)));
    throw new ClientError(FastransCodes.timeout, FastransText.portalSilent(e.msg));
  }
}

/**
 * Whom this client belongs to (issue 24 §3.1): the portal and portal user of the first page login, kept in the
 * config folder. A page login as anyone else is refused, so a process of another account that reaches the local
 * port (on a system that does not say who connects) cannot log the client in as itself and upload the owner's files
 * to its own home. The owner frees it with `fastrans unpair`. The command line is the owner at the keyboard: its
 * `FASTRANS_TOKEN` logins are not paired.
 */
export class Owner {
  constructor(private readonly configDir: string) {}

  private get file() {
    return path.join(this.configDir, 'owner.json');
  }

  /** The portal user a day token stands for (its `sub`; the portal checks the signature). */
  static of(portal: string, uk: string): { portal: string; sub: string } {
    try {
      // The JWT's payload, unverified: only for comparing; the portal verifies the token at the login.
      const { sub } = JSON.parse(Buffer.from(uk.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
        sub?: unknown;
      };
      if (typeof sub === 'string' && sub) return { portal, sub };
    } catch {
      /* below */
    }
    throw new ClientError(FastransCodes.badRequest, FastransText.notDayToken);
  }

  async get(): Promise<{ portal: string; sub: string } | null> {
    try {
      return JSON.parse(await fs.readFile(this.file, 'utf8')) as { portal: string; sub: string };
    } catch {
      return null;
    }
  }

  /** Refuses a login of anyone but the owner ("2016", reason `fastransOtherOwner`). */
  async check(who: { portal: string; sub: string }): Promise<void> {
    const owner = await this.get();
    if (owner && (owner.portal !== who.portal || owner.sub !== who.sub))
      throw new ClientError(FastransCodes.refused, FastransText.otherOwner, {
        reason: FastransRefusal.otherOwner,
      });
  }

  /** Pairs with the first owner to log in (after the portal accepted the token). */
  async pair(who: { portal: string; sub: string }): Promise<void> {
    if (!(await this.get())) await writeAtomic(this.file, JSON.stringify(who));
  }

  async unpair(): Promise<void> {
    await fs.rm(this.file, { force: true });
  }
}

/**
 * The login of the client: the day token the page (or the command line) hands over is checked by the portal's web
 * server, which answers the cluster's efile instances. The token is kept in the config folder (mode 0600) so that a
 * restarted client resumes its tasks; it is never written to a log.
 */
export class Session {
  info: LoginInfo | null = null;
  remote: Remote | null = null;
  private api: FastransWebCalls | null = null;
  private webToken: string | null = null;
  private uk: string | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private renewing = false;
  /** Told of every login (the portal and its web token) and logout: the relay polls while logged in. */
  onChange: (web: { portal: string; token: string } | null) => void = () => undefined;

  constructor(
    private readonly configDir: string,
    private readonly who?: FastransClientWho,
  ) {}

  private get file() {
    return path.join(this.configDir, 'session.json');
  }

  async login(portal: string, uk: string, persist = true): Promise<LoginInfo> {
    const api = webServer(portal, this.who);
    const me = await web(api.login(uk));
    const { servers } = await web(api.servers(me.token));
    const urls = servers.map((s) => new URL(s.url, portal + '/').toString().replace(/\/$/, ''));
    if (urls.length === 0) throw new ClientError(CommonCodes.noChange, FastransText.noFileService);
    this.api = api;
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
      if (this.api && this.webToken) void web(this.api.heartbeat(this.webToken)).catch(() => undefined);
    };
    beat();
    this.heartbeat = setInterval(beat, 30_000);
    this.heartbeat.unref();
  }

  /**
   * The portal refused the relay's poll with `webToken` (its web login ended: the portal lost its sessions, or the
   * day is over). If that is still this session's login, log in again with the saved day token, which the portal
   * accepts while it is valid; the relay then polls with the new web token. A login that fails leaves the session
   * as it is (a direct connection from the page still works, and the page may log in anew): the relay tries again
   * after a pause instead of polling with the dead token every few seconds. Never a logout: a passing failure of
   * the portal must not cost the user their login.
   */
  async renew(webToken: string): Promise<void> {
    const { info, uk } = this;
    if (!info || !uk || webToken !== this.webToken || this.renewing) return;
    this.renewing = true;
    try {
      await this.login(info.portal, uk, false);
    } catch {
      setTimeout(() => {
        if (this.webToken === webToken && this.info) this.onChange({ portal: info.portal, token: webToken });
      }, RENEW_RETRY_MS).unref();
    } finally {
      this.renewing = false;
    }
  }

  async logout(): Promise<void> {
    if (this.api && this.webToken) await web(this.api.logout(this.webToken)).catch(() => undefined);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.info = null;
    this.api = null;
    this.remote = null;
    this.webToken = null;
    this.uk = null;
    this.onChange(null);
    await fs.rm(this.file, { force: true });
  }

  /**
   * The client is stopping: no more heartbeats, and the portal is told, so that the user's page stops counting on
   * this client at once (it would otherwise try it for a few seconds until its presence expired). The login stays
   * (a restarted client resumes with it). At most `waitMs`: a portal that does not answer must not hold the exit.
   */
  async close(waitMs = 2_000): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (!this.api || !this.webToken) return;
    await web(this.api.stopping(this.webToken, waitMs)).catch(() => undefined);
  }
}
