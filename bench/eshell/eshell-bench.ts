/**
 * bench/eshell (issue 26 §4): the browser shell's path (WebSocket → the shell service → `ssh` in a pty → sshd)
 * against plain `ssh` to the same sshd in the same run:
 *
 *   1. keystroke echo round trip (a key sent, its echo back) at p50 and p99: through the service vs `ssh` in a pty;
 *   2. `cat` of a 100 MB text file: through the service (a terminal: the pty, the socket) vs `ssh host cat` into
 *      /dev/null;
 *   3. 200 sessions open at once: the service's memory per session (its own RSS, and its ssh children's), and a
 *      keystroke's p99 then.
 *
 * Needs root (a user of its own, Debian's sshd of scripts/cluster/sshd.mjs on a free port). Run:
 * `npx tsx bench/eshell/eshell-bench.ts` (ESHELL_BENCH_KEYS=400, ESHELL_BENCH_MB=100, ESHELL_BENCH_SESSIONS=200).
 * Figures go to docs/PERFORMANCE.md by hand.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn as ptySpawn } from '@lydell/node-pty';
import { exportJWK, generateKeyPair } from 'jose';
import WebSocket from 'ws';
import { ESHELL_WS_PATH } from '@hpc/contracts';
import { parseLoginNodes, prepareLogin, prepareRunDir } from '@hpc/eshell';
import { signClusterToken } from '@hpc/server-kit';
import { cpuOf, ms, reporter, secs } from '../bench-kit';
import { createUsers, idOf, makeHome, openPathTo, removeUsers } from '../../test-support/unix-users';
import * as sshd from '../../scripts/cluster/sshd.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const USER = 'eshbench1';
const CLUSTER = 'eb1';
const KEYS = Number(process.env.ESHELL_BENCH_KEYS ?? 400);
const MB = Number(process.env.ESHELL_BENCH_MB ?? 100);
const SESSIONS = Number(process.env.ESHELL_BENCH_SESSIONS ?? 200);
const { say, lines } = reporter();

if (process.getuid?.() !== 0) {
  console.error('bench/eshell needs root (a user of its own, sshd)');
  process.exit(2);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const f2 = (n: number) => n.toFixed(2);
const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const childrenOf = (pid: number): number[] => {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

/** Something that takes keys and gives output: the service's socket or a local pty. */
interface Term {
  write(d: string): void;
  onOutput(cb: (d: string) => void): void;
  close(): void;
}

/** Keystroke round trips: one key at a time, the next when its echo came (x, then backspace, so the line stays short). */
async function echoTimes(term: Term, n: number): Promise<number[]> {
  const times: number[] = [];
  let waiting: (() => void) | null = null;
  term.onOutput(() => {
    const w = waiting;
    waiting = null;
    w?.();
  });
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      waiting = resolve;
      term.write(i % 2 === 0 ? 'x' : '\x7f');
    });
    times.push(ms(t0));
    // Let a split echo (backspace's "\b \b") finish before the next key.
    await new Promise((r) => setTimeout(r, 2));
  }
  return times;
}

/** Runs `line` in the terminal and resolves with the seconds until `mark` came back. */
function timeUntil(term: Term, line: string, mark: string): Promise<number> {
  return new Promise((resolve) => {
    let tail = '';
    let t0 = 0n;
    term.onOutput((d) => {
      tail = (tail + d).slice(-200);
      if (t0 && tail.includes(mark)) resolve(secs(t0));
    });
    setTimeout(() => {
      t0 = process.hrtime.bigint();
      term.write(line);
    }, 300);
  });
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eshell-bench-'));
  fs.chmodSync(dir, 0o711);
  const home = path.join(dir, 'home', USER);
  createUsers([USER], { [USER]: ['-d', home] });
  makeHome(home, USER);
  openPathTo(path.dirname(home));
  const stateDir = path.join(dir, 'state');
  let service: ReturnType<typeof spawn> | null = null;
  try {
    const { env: sshEnv } = await sshd.start({ stateDir, log: () => undefined });
    const node = parseLoginNodes(sshEnv.ESHELL_LOGIN_NODES)[0]!;
    // A text file of MB megabytes, the user's (base64 lines, what a terminal shows).
    const big = path.join(home, 'big.txt');
    execFileSync('sh', [
      '-c',
      `head -c ${Math.round((MB * 1024 * 1024 * 3) / 4)} /dev/urandom | base64 -w 76 > ${big}`,
    ]);
    fs.chownSync(big, idOf(USER), idOf(USER));

    // The portal's JWKS, served for the standalone service.
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' }] };
    const jwksServer = http.createServer((_q, r) => r.end(JSON.stringify(jwks)));
    await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
    const jwksPort = (jwksServer.address() as { port: number }).port;
    const token = await signClusterToken(privateKey, 'k1', {
      sub: '900',
      aud: CLUSTER,
      cun: USER,
      home,
      paths: [],
      st: 'Normal',
      exp_acct: null,
      acct: null,
    });

    // The shell service in its own process, as deployed (built bundle if there, else the source through tsx).
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const dist = path.join(root, 'apps/eshell/dist/server.js');
    const args = fs.existsSync(dist)
      ? [dist]
      : ['--import', 'tsx', path.join(root, 'apps/eshell/src/server.ts')];
    service = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        ...sshEnv,
        ESHELL_CLUSTER_ID: CLUSTER,
        ESHELL_PORT: String(port),
        ESHELL_HOST: '127.0.0.1',
        ESHELL_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks.json`,
        ESHELL_MAX_SESSIONS_PER_USER: String(SESSIONS + 10),
        DATA_DIR: path.join(dir, 'data'),
        LOG_LEVEL: 'warn',
      },
    });
    await new Promise<void>((resolve, reject) => {
      service!.once('message', () => resolve());
      service!.once('exit', (c) => reject(new Error(`the service exited (${c})`)));
    });
    const base = `http://127.0.0.1:${port}`;

    const openService = async (): Promise<Term> => {
      const res = await fetch(`${base}/sothisai/api/eshell/action/ticket`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify({ node: node.address, cols: 120, rows: 40 }),
      });
      const body = (await res.json()) as { code: string; data: { ticket: string } };
      if (body.code !== '0') throw new Error(`ticket: ${JSON.stringify(body)}`);
      const ws = new WebSocket(`ws://127.0.0.1:${port}${ESHELL_WS_PATH}`, { origin: base });
      let cb: (d: string) => void = () => undefined;
      let ready!: () => void;
      const isReady = new Promise<void>((r) => (ready = r));
      ws.on('message', (data: Buffer, isBinary) => {
        if (isBinary) cb(data.toString());
        else if ((JSON.parse(data.toString()) as { t: string }).t === 'ready') ready();
      });
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ t: 'auth', ticket: body.data.ticket }));
      await isReady;
      return {
        write: (d) => ws.send(JSON.stringify({ t: 'in', d })),
        onOutput: (f) => (cb = f),
        close: () => ws.close(),
      };
    };
    // Plain ssh with the same kind of certificate, in a pty of this process.
    const runDir = path.join(dir, 'plain-run');
    prepareRunDir(runDir);
    const settings = {
      sshBin: 'ssh',
      keygenBin: 'ssh-keygen',
      caKey: sshEnv.ESHELL_CA_KEY,
      runDir,
      certMinutes: 5,
      connectTimeoutS: 10,
    };
    const openPlain = async (): Promise<Term> => {
      const login = await prepareLogin(settings, { cun: USER, node, keyId: 'bench' });
      const pty = ptySpawn(login.file, login.args, {
        name: 'xterm-256color',
        cols: 120,
        rows: 40,
        env: { PATH: process.env.PATH! },
      });
      let cb: (d: string) => void = () => undefined;
      let seen = '';
      pty.onData((d) => {
        seen += d;
        cb(d);
      });
      // Ready when the prompt's "$ " came.
      while (!/[$#] $/.test(seen)) await new Promise((r) => setTimeout(r, 20));
      return { write: (d) => pty.write(d), onOutput: (f) => (cb = f), close: () => pty.kill() };
    };
    const settleTerm = () => new Promise((r) => setTimeout(r, 500));

    // 1. Keystroke echo.
    for (const [name, open] of [
      ['plain ssh (pty)', openPlain],
      ['E-Shell (ws → service → ssh)', openService],
    ] as const) {
      const term = await open();
      await settleTerm();
      await echoTimes(term, 50); // warm-up
      const t = await echoTimes(term, KEYS);
      say(`keystroke echo, ${name}: p50 ${f2(pct(t, 50))} ms, p99 ${f2(pct(t, 99))} ms (${KEYS} keys)`);
      term.close();
    }

    // 2. cat of the big file.
    const plainCat = spawnSync(
      'sh',
      [
        '-c',
        `start=$(date +%s.%N); ssh -F /dev/null -i "$K" -o CertificateFile="$K-cert.pub" -o IdentitiesOnly=yes ` +
          `-o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$KH" -p ${node.port} -l ${USER} ` +
          `${node.host} cat ${big} > /dev/null; end=$(date +%s.%N); echo "$start $end"`,
      ],
      {
        encoding: 'utf8',
        env: await (async () => {
          const l = await prepareLogin(settings, { cun: USER, node, keyId: 'bench-cat' });
          return { ...process.env, K: path.join(l.keyDir, 'id'), KH: path.join(l.keyDir, 'known_hosts') };
        })(),
      },
    );
    const [s0, s1] = plainCat.stdout.trim().split(' ').map(Number);
    const plainS = s1! - s0!;
    say(`cat ${MB} MB, plain ssh into /dev/null: ${f2(plainS)} s (${f2(MB / plainS)} MB/s)`);
    {
      // The terminal's own cost: plain ssh in a pty of this process, the output read as the service reads it.
      const term = await openPlain();
      await settleTerm();
      const mark = `DONE${Date.now()}`;
      const s = await timeUntil(term, `cat ${big}; echo ${mark.slice(0, 4)}''${mark.slice(4)}\n`, mark);
      say(`cat ${MB} MB, plain ssh in a pty: ${f2(s)} s (${f2(MB / s)} MB/s, ${f2(plainS / s)}× plain)`);
      term.close();
    }
    {
      const term = await openService();
      await settleTerm();
      const mark = `DONE${Date.now()}`;
      const rss0 = rssKb(service.pid!);
      const cpu0 = cpuOf(service.pid!);
      const s = await timeUntil(term, `cat ${big}; echo ${mark.slice(0, 4)}''${mark.slice(4)}\n`, mark);
      say(
        `cat ${MB} MB through E-Shell (pty → ws client): ${f2(s)} s (${f2(MB / s)} MB/s, ${f2(plainS / s)}× plain); ` +
          `service CPU ${f2(cpuOf(service.pid!) - cpu0)} s, RSS ${Math.round(rss0 / 1024)} → ` +
          `${Math.round(rssKb(service.pid!) / 1024)} MB`,
      );
      term.close();
    }
    await new Promise((r) => setTimeout(r, 500));

    // 3. Many sessions.
    const before = rssKb(service.pid!);
    const terms: Term[] = [];
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < SESSIONS; i += 8) {
      const batch = await Promise.all(Array.from({ length: Math.min(8, SESSIONS - i) }, () => openService()));
      terms.push(...batch);
    }
    const openS = secs(t0);
    await new Promise((r) => setTimeout(r, 1000));
    const after = rssKb(service.pid!);
    const sshKids = childrenOf(service.pid!);
    const sshRss = sshKids.reduce((a, pid) => a + rssKb(pid), 0);
    say(
      `${SESSIONS} sessions opened in ${f2(openS)} s (8 at a time): service RSS ${Math.round(before / 1024)} → ` +
        `${Math.round(after / 1024)} MB (${f2((after - before) / SESSIONS)} KB per session); ` +
        `${sshKids.length} ssh processes, ${f2(sshRss / sshKids.length / 1024)} MB RSS each`,
    );
    const t = await echoTimes(terms[terms.length - 1]!, KEYS);
    say(`keystroke echo with ${SESSIONS} sessions open: p50 ${f2(pct(t, 50))} ms, p99 ${f2(pct(t, 99))} ms`);
    for (const term of terms) term.close();
    jwksServer.close();
  } finally {
    if (service && service.exitCode === null) {
      service.kill('SIGTERM');
      await new Promise((r) => service!.once('exit', r));
    }
    await sshd.stop({ stateDir });
    removeUsers([USER]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${lines.join('\n')}`);
}

await main();
