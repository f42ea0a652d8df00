import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { spawn, type IPty } from '@lydell/node-pty';
import { EshellCodes, type ShellEndReason, type ShellServerMessage } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { checkAccountAsync, type AccountRules, type TokenClaims } from '@hpc/cluster-kit';
import type { LoginNode } from '../ssh/login-nodes';
import { prepareLogin, type SshLoginSettings } from '../ssh/ssh-login';
import { OPEN_SESSION_TTL_MS, type OpenSessions } from './open-sessions';
import { PtyInput } from './pty-input';
import { Scrollback } from './scrollback';

/** The page's end of a session: a socket, seen through what the session needs of it. */
export interface ShellClient {
  /** Output (bytes as the pty gave them); false when the socket's buffer is full (the pty pauses until `drained`). */
  output(d: Buffer): boolean;
  control(m: ShellServerMessage): void;
  /** Another page took the session over: close without ending it. */
  replaced(): void;
  /** The shell has taken enough of the input queued before: the page's socket may be read again. */
  inputDrained(): void;
}

/** What of node-pty's terminal on Unix the input needs and its types do not name: the master and its stream. */
interface UnixPty {
  fd: number;
  _socket?: { destroyed: boolean };
}

export interface SessionOwner {
  /** Portal user id. */
  sub: string;
  /** Cluster user name. */
  cun: string;
}

export interface SessionSettings {
  clusterId: string;
  ssh: SshLoginSettings;
  maxPerUser: number;
  /** The user's open shells over every instance (a KV record): the limit is counted there. */
  open: OpenSessions;
  detachMs: number;
  idleMs: number;
  scrollbackBytes: number;
  /** The shell's locale, sent to the node (`SendEnv=LANG`). */
  lang: string;
  /** How often detach and idle deadlines are looked at. */
  sweepMs: number;
  /** Who a shell may be opened as (ESHELL_MIN_UID, ESHELL_REFUSED_SHELLS). */
  accounts: AccountRules;
  log: FastifyBaseLogger;
  now?: () => number;
}

export interface NewSession extends SessionOwner {
  id: string;
  node: LoginNode;
  cwd?: string;
  cols: number;
  rows: number;
}

/** One shell: ssh in a pseudo-terminal, its scroll-back, the page attached to it (or none, for a while). */
export class ShellSession {
  readonly startedAt: number;
  lastActivity: number;
  detachedAt: number | null;
  client: ShellClient | null = null;
  /** The token the session was last opened or attached with: asked about in the revocation store while it runs. */
  credential: { token: string; claims: TokenClaims } | null = null;
  ended: ShellEndReason | null = null;
  private readonly scroll: Scrollback;
  private readonly keys: PtyInput;
  private endMessage?: string;

  constructor(
    readonly id: string,
    readonly owner: SessionOwner,
    readonly node: LoginNode,
    readonly pty: IPty,
    scrollbackBytes: number,
    now: number,
  ) {
    this.startedAt = now;
    this.lastActivity = now;
    this.detachedAt = now;
    this.scroll = new Scrollback(scrollbackBytes);
    const unix = pty as unknown as UnixPty;
    this.keys = new PtyInput(
      unix.fd,
      () => unix._socket?.destroyed === false,
      () => this.client?.inputDrained(),
    );
  }

  /** Output of the shell: kept in the scroll-back, and sent to the page if one is attached. */
  onOutput(d: Buffer, now: number) {
    this.lastActivity = now;
    this.scroll.push(d);
    if (this.client && !this.client.output(d)) this.pty.pause();
  }

  /** The page's socket drained: output flows again. */
  drained() {
    this.pty.resume();
  }

  /** Attaches a page: the scroll-back first, then `ready`, then live output. A page attached before is replaced. */
  attach(client: ShellClient) {
    if (this.client && this.client !== client) this.client.replaced();
    this.client = client;
    this.detachedAt = null;
    const replay = this.scroll.bytes();
    if (replay.length > 0) client.output(replay);
    client.control({ t: 'ready', sessionId: this.id, node: this.node.address, replayed: replay.length });
    this.pty.resume();
  }

  detach(client: ShellClient, now: number) {
    if (this.client !== client) return;
    this.client = null;
    this.detachedAt = now;
    // A detached shell keeps running (and printing into the scroll-back): never blocked by a page that left.
    this.pty.resume();
  }

  /** What the page typed or pasted; false when the page's socket should wait for `inputDrained` (pty-input.ts). */
  input(d: string, now: number): boolean {
    if (this.ended) return true;
    this.lastActivity = now;
    return this.keys.write(Buffer.from(d, 'utf8'));
  }

  resize(cols: number, rows: number) {
    if (this.ended) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      /* the pty closed meanwhile */
    }
  }

  /** Ends the shell (SIGHUP to ssh, which hangs up the remote shell); `exited` reports the end. */
  end(reason: ShellEndReason, message?: string) {
    if (this.ended) return;
    this.ended = reason;
    this.endMessage = message;
    this.keys.close();
    try {
      this.pty.kill('SIGHUP');
    } catch {
      /* gone already */
    }
  }

  /** The shell is gone: input still queued for it is dropped. */
  closeInput() {
    this.keys.close();
  }

  get endReason() {
    return { reason: this.ended ?? ('exit' as const), message: this.endMessage };
  }
}

/**
 * The shell sessions of one service instance (issue 26 §1, §2): started over real OpenSSH with a short-lived user
 * certificate, kept for `detachMs` after the page's socket drops, ended after `idleMs` without input and output.
 * Start and end are logged (user, cluster, node, address, duration), never what is typed or printed.
 */
export class SessionManager {
  private readonly sessions = new Map<string, ShellSession>();
  private readonly timer: NodeJS.Timeout;
  private lastRefresh = 0;
  private readonly now: () => number;

  constructor(private readonly s: SessionSettings) {
    this.now = s.now ?? Date.now;
    this.timer = setInterval(() => this.sweep(), s.sweepMs);
    this.timer.unref();
  }

  /** A fresh session id: not guessable, and the page keeps it in sessionStorage. */
  static newId(): string {
    return randomBytes(18).toString('base64url');
  }

  get(id: string): ShellSession | undefined {
    return this.sessions.get(id);
  }

  /** The user's session, or ESHELL_NO_SESSION: another user's id is "no session" too. */
  ownedBy(id: string, owner: SessionOwner): ShellSession {
    const s = this.sessions.get(id);
    if (!s || s.ended || s.owner.sub !== owner.sub || s.owner.cun !== owner.cun)
      throw new AppError(EshellCodes.noSession);
    return s;
  }

  listOf(owner: SessionOwner): ShellSession[] {
    return [...this.sessions.values()].filter(
      (s) => !s.ended && s.owner.sub === owner.sub && s.owner.cun === owner.cun,
    );
  }

  all(): ShellSession[] {
    return [...this.sessions.values()];
  }

  /**
   * Refuses a new session as an account no shell may be opened as (root, a system account, a refused shell: 1017;
   * unknown here: 601009), or beyond the user's limit (ESHELL_SESSION_LIMIT) over every instance of the service:
   * asked when the page asks for a ticket, so it hears at once; the start takes its place for good (`open.reserve`).
   */
  async assertRoom(owner: SessionOwner): Promise<void> {
    await checkAccountAsync(owner.cun, this.s.accounts);
    if ((await this.s.open.count(owner.sub)) >= this.s.maxPerUser)
      throw new AppError(EshellCodes.sessionLimit);
  }

  /** Starts ssh for a new session. The keys of its handshake are gone once it is made (or failed). */
  async start(n: NewSession): Promise<ShellSession> {
    // Again at the start (the ticket's check was seconds ago): never root, a system account or a refused shell.
    await checkAccountAsync(n.cun, this.s.accounts);
    if (!(await this.s.open.reserve(n.sub, n.id, this.s.maxPerUser)))
      throw new AppError(EshellCodes.sessionLimit);
    let started = false;
    try {
      const login = await prepareLogin(this.s.ssh, {
        cun: n.cun,
        node: n.node,
        keyId: `eshell:${this.s.clusterId}:${n.cun}:${n.id}`,
        cwd: n.cwd,
      });
      let pty: IPty;
      try {
        pty = spawn(login.file, login.args, {
          name: 'xterm-256color',
          cols: n.cols,
          rows: n.rows,
          cwd: this.s.ssh.runDir,
          // Bytes as they come: the page's terminal decodes UTF-8 itself (no decoding and re-encoding here).
          encoding: null,
          // Nothing of the service's environment reaches ssh; of this, only LANG reaches the node (SendEnv).
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: this.s.lang },
        });
      } catch (e) {
        login.dispose();
        throw e;
      }
      // At the latest: the certificate is useless after its minutes anyway.
      const deadline = setTimeout(() => login.dispose(), (this.s.ssh.connectTimeoutS + 5) * 1000);
      deadline.unref();
      const session = new ShellSession(n.id, n, n.node, pty, this.s.scrollbackBytes, this.now());
      this.sessions.set(n.id, session);
      // What the start and end lines both say of the session, so the two can be matched in the log.
      const logFields = {
        session: n.id,
        user: n.sub,
        cun: n.cun,
        cluster: this.s.clusterId,
        node: n.node.address,
        address: `${n.node.host}:${n.node.port}`,
      };
      this.s.log.info({ event: 'eshell.start', ...logFields }, 'shell session started');
      // With `encoding: null` node-pty hands Buffers (its types say string).
      pty.onData((d: unknown) => session.onOutput(d as Buffer, this.now()));
      pty.onExit(({ exitCode }) => {
        clearTimeout(deadline);
        login.dispose();
        this.sessions.delete(n.id);
        void this.s.open.release(n.sub, n.id).catch(() => undefined);
        const { reason, message } = session.endReason;
        if (!session.ended) session.ended = 'exit';
        session.closeInput();
        session.client?.control({ t: 'end', reason, code: exitCode, ...(message ? { message } : {}) });
        this.s.log.info(
          {
            event: 'eshell.end',
            ...logFields,
            durationMs: this.now() - session.startedAt,
            reason,
            exitCode,
          },
          'shell session ended',
        );
      });
      started = true;
      return session;
    } finally {
      if (!started) await this.s.open.release(n.sub, n.id).catch(() => undefined);
    }
  }

  /** Ends sessions past their detach time or idle time. */
  sweep(): void {
    const now = this.now();
    for (const s of this.sessions.values()) {
      if (s.ended) continue;
      if (s.detachedAt !== null && now - s.detachedAt >= this.s.detachMs) s.end('detached');
      else if (now - s.lastActivity >= this.s.idleMs) s.end('idle');
    }
    // The records of the live sessions, a few times within their life.
    if (now - this.lastRefresh >= OPEN_SESSION_TTL_MS / 3) {
      this.lastRefresh = now;
      const live = [...this.sessions.values()].filter((s) => !s.ended);
      void this.s.open
        .refresh(live.map((s) => ({ sub: s.owner.sub, id: s.id })))
        .catch((e: Error) => this.s.log.warn({ err: e }, 'the open-session records were not refreshed'));
    }
  }

  /** Ends every session (the service stops: the page says so) and waits for them to exit. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const open = [...this.sessions.values()];
    for (const s of open) s.end('shutdown', 'The shell service is restarting');
    const deadline = Date.now() + 3000;
    while (this.sessions.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
}
