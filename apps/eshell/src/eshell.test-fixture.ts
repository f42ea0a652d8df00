import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll } from 'vitest';
import type { OwnerRightsLookup } from '@hpc/cluster-kit';
import { ESHELL_WS_PATH, type ShellServerMessage } from '@hpc/contracts';
import { createRevocationStore, createKv, signClusterToken, type KvStore } from '@hpc/server-kit';
import { makePortalKeys } from '@hpc/server-kit/testing';
import { buildEshell } from './app';
import { textOf } from './http/socket';
import { readEshellConfig } from './config';
import { sshdConfig } from '../../../scripts/cluster/sshd.mjs';

export const CLUSTER = 'et1';
export const SSHD = '/usr/sbin/sshd';

/** Why the tests on a real sshd cannot run here, or null. */
export function sshdMissing(): string | null {
  if (process.getuid?.() !== 0) return 'not root (sshd and the test users need root)';
  if (!fs.existsSync(SSHD)) return `${SSHD} is missing (apt-get install openssh-server)`;
  for (const bin of ['ssh', 'ssh-keygen', 'useradd'])
    try {
      execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    } catch {
      return `${bin} is missing`;
    }
  return null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const keygen = (...args: string[]) => execFileSync('ssh-keygen', ['-q', ...args], { stdio: 'pipe' });

/** A key pair in `dir` (ed25519, no passphrase); returns the public line. */
export function makeKey(file: string): string {
  keygen('-t', 'ed25519', '-N', '', '-C', path.basename(file), '-f', file);
  return fs.readFileSync(`${file}.pub`, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
}

/**
 * Debian's sshd on a free loopback port with a configuration of its own (its own host key, the test CA in
 * TrustedUserCAKeys, principals = the user name, no authorized_keys at all), in the foreground, logging to a file.
 */
export async function startSshd(dir: string, caPub: string) {
  const port = await freePort();
  const hostKey = makeKey(path.join(dir, 'host_ed25519'));
  fs.writeFileSync(path.join(dir, 'ca.pub'), `${caPub}\n`);
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    sshdConfig({
      port,
      hostKey: path.join(dir, 'host_ed25519'),
      pidFile: path.join(dir, 'sshd.pid'),
      caPub: path.join(dir, 'ca.pub'),
      more: ['AuthorizedKeysFile none'],
    }),
  );
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const logFile = path.join(dir, 'sshd.log');
  const proc: ChildProcess = spawn(SSHD, ['-D', '-f', config, '-E', logFile], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((r) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.destroy();
        r(true);
      });
      c.once('error', () => r(false));
    });
    if (up) break;
    if (Date.now() > until || proc.exitCode !== null)
      throw new Error(
        `sshd did not start: ${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    hostKey,
    log: () => fs.readFileSync(logFile, 'utf8'),
    stop: () =>
      new Promise<void>((r) => {
        if (proc.exitCode !== null) return r();
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

export interface HarnessOptions {
  dir: string;
  caKey: string;
  nodes: { address: string; hostKey: string }[];
  homes: Record<string, string>;
  env?: Record<string, string>;
  ownerRights?: OwnerRightsLookup;
  /** Another instance of the same service: the portal's keys and the store of open shells of the first. */
  sameServiceAs?: { keys: Awaited<ReturnType<typeof makePortalKeys>>; openKv: KvStore };
}

/** The service's log lines, as JSON objects (the harness logs at info into this). */
export class LogLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  raw = '';
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.raw += chunk.toString();
    for (const line of chunk.toString().split('\n').filter(Boolean))
      this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

/** A standalone shell service listening on loopback, with a portal key pair, a revocation store and tokens. */
export async function eshellHarness(o: HarnessOptions) {
  const keys = o.sameServiceAs?.keys ?? (await makePortalKeys());
  const kv = createKv(undefined, 'rev:');
  const openKv = o.sameServiceAs?.openKv ?? createKv(undefined, 'open:');
  const revocations = createRevocationStore(kv);
  const users = Object.keys(o.homes);
  const subOf = (user: string) => String(users.indexOf(user) + 100);
  const config = readEshellConfig({
    ESHELL_CLUSTER_ID: CLUSTER,
    DATA_DIR: path.join(o.dir, 'data'),
    ESHELL_CA_KEY: o.caKey,
    ESHELL_LOGIN_NODES: JSON.stringify(o.nodes),
    LOG_LEVEL: 'info',
    ESHELL_REVOCATION_CHECK_S: '0.2',
    ...o.env,
  });
  fs.mkdirSync(o.dir, { recursive: true });
  const logs = new LogLines();
  const { app, deps } = await buildEshell(config, {
    logStream: logs,
    jwks: () => keys.jwks,
    revocations,
    kv: openKv,
    sweepMs: 100,
    ...(o.ownerRights ? { ownerRights: o.ownerRights } : {}),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const base = address.replace('0.0.0.0', '127.0.0.1');
  const token = (user: string, claims: { sid?: string; cun?: string } = {}) =>
    signClusterToken(keys.privateKey, 'k1', {
      sub: subOf(user),
      aud: CLUSTER,
      cun: claims.cun ?? user,
      home: o.homes[claims.cun ?? user] ?? '',
      paths: [],
      st: 'Normal',
      exp_acct: null,
      acct: null,
      ...(claims.sid ? { sid: claims.sid } : {}),
    });
  const call = async <T>(tok: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { token: tok, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as { code: string; msg: string; data: T };
  };
  return {
    app,
    deps,
    keys,
    openKv,
    base,
    revocations,
    logs,
    token,
    call,
    ticket: (tok: string, body: Record<string, unknown>) =>
      call<{ ticket: string; sessionId: string }>(tok, 'POST', '/sothisai/api/eshell/action/ticket', body),
    /** A terminal as the page opens it, from the service's own origin unless told otherwise. */
    connect: (origin = base) => new Terminal(`${base.replace(/^http/, 'ws')}${ESHELL_WS_PATH}`, origin),
    async close() {
      await app.close();
      await kv.close();
      if (!o.sameServiceAs) await openKv.close();
    },
  };
}

/**
 * A shell service for what is refused before any node (tickets, sockets): a CA of its own, one node nobody answers
 * (no sshd needed), demo's home. Call in a `describe`: it starts before the tests and is closed after them.
 */
export function useNodelessEshell(prefix: string, o: Partial<HarnessOptions> = {}) {
  let dir = '';
  let h: Awaited<ReturnType<typeof eshellHarness>> | undefined;
  beforeAll(async () => {
    dir = tmpDir(prefix);
    const caKey = path.join(dir, 'ca');
    makeKey(caKey);
    h = await eshellHarness({
      dir,
      caKey,
      nodes: [{ address: '127.0.0.1:1', hostKey: makeKey(path.join(dir, 'host')) }],
      homes: { demo: '/public/home/demo' },
      ...o,
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => h!;
}

/** The page's side of the socket, for tests: collects output and control messages, waits for text. */
export class Terminal {
  readonly ws: WebSocket;
  output = '';
  controls: ShellServerMessage[] = [];
  /** Output that came before `ready` (the replayed scroll-back). */
  beforeReady: string | null = null;
  closed: { code: number; reason: string } | null = null;
  readonly opened: Promise<void>;

  constructor(url: string, origin: string) {
    this.ws = new WebSocket(url, { origin });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) this.output += textOf(data);
      else {
        const m = JSON.parse(textOf(data)) as ShellServerMessage;
        if (m.t === 'ready') this.beforeReady = this.output;
        this.controls.push(m);
      }
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  send(m: unknown) {
    this.ws.send(JSON.stringify(m));
  }

  async auth(ticket: string) {
    await this.opened;
    this.send({ t: 'auth', ticket });
  }

  type(d: string) {
    this.send({ t: 'in', d });
  }

  async waitFor<T>(what: string, test: () => T | null | undefined | false, ms = 8000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const v = test();
      if (v) return v;
      if (Date.now() > until)
        throw new Error(`timed out waiting for ${what}; output: ${JSON.stringify(this.output.slice(-2000))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  ready() {
    return this.waitFor('ready', () => this.controls.find((c) => c.t === 'ready'));
  }

  ended() {
    return this.waitFor('end', () => this.controls.find((c) => c.t === 'end'));
  }

  close() {
    this.ws.close();
  }
}

export const tmpDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return dir;
};
