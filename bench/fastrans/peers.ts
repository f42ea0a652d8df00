/**
 * Fast transfer against what an HPC user has everywhere (issue 24 §1): OpenSSH's scp, `rsync -a -e ssh` and
 * `tar | ssh` (and, for an upload of many files, `rsync -a --fsync`, which syncs each file as efile does; for the
 * large file's upload, scp followed by `sync` of the file it wrote, for the same reason), to
 * Debian's sshd on a free loopback port (scripts/cluster/sshd.mjs, with a CA of its own; the bench signs a user
 * certificate), in alternating rounds from the same cache state, the client's runner in this process
 * against efile as operators run it. Then both through `bench/long-link.ts` (20 ms each way, 2 MiB in flight per
 * connection and direction). Not a test: figures go to docs/PERFORMANCE.md "Fast transfer against scp and rsync".
 *
 * Needs root. Run: `node --import tsx bench/fastrans/peers.ts` (FASTRANS_BENCH_MODE=unix for unix mode).
 * PEERS_MIB (4096), PEERS_FILES (10,000 of 10 KB), PEERS_TINY (100,000 of 1 KB), PEERS_LONG_MIB (4096),
 * PEERS_AGAIN (1,000 of 1 MiB, sent again), PEERS_ROUNDS (2),
 * PEERS_ONLY=large,small,tiny,again,long-large,long-small,long-again scale it or pick sections; PEERS_AB_RAW=1 adds
 * the client with its range downloads through node:http (before range-get.ts) to the large download's rounds.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Runner } from '../../apps/fastrans/src/transfer/runner';
import * as sshd from '../../scripts/cluster/sshd.mjs';
import { idOf, isRoot } from '../../test-support/unix-users';
import { longLink } from '../long-link';
import { MiB, median, reporter, secs, settle, treeCpu, writeRandomFile } from '../bench-kit';
import { benchMode, runFastransBench, smallFiles, startFastransBench, transfer } from './setup';

if (!isRoot) {
  console.error('bench/fastrans/peers.ts needs root (sshd, a user certificate, dropping the page cache)');
  process.exit(1);
}
const env = (k: string, d: number) => Number(process.env[k] ?? d);
const LARGE = env('PEERS_MIB', 4096) * MiB;
const FILES = env('PEERS_FILES', 10_000);
const TINY = env('PEERS_TINY', 100_000);
const LONG = env('PEERS_LONG_MIB', 4096) * MiB;
/** Files of 1 MiB (the largest that go in batches) in the folder sent again. */
const AGAIN = env('PEERS_AGAIN', 1_000);
const ROUNDS = env('PEERS_ROUNDS', 2);
const ONLY = process.env.PEERS_ONLY?.split(',');
const section = (s: string) => !ONLY || ONLY.includes(s);
const sh = promisify(execFile);
const { say } = reporter();

const mode = benchMode();
const bench = await startFastransBench({ mode });
const { tmp, HOME, home, user } = bench;
try {
  idOf(user);
} catch {
  console.error(
    `the user ${user} must exist for ssh (npm run start:cluster makes demo; or FASTRANS_BENCH_MODE=unix)`,
  );
  process.exit(1);
}

async function main() {
  say(`machine: ${bench.machine}; OpenSSH ${(await sh('ssh', ['-V'])).stderr.trim()}`);
  const stateDir = path.join(tmp, 'sshd');
  const { env: sshEnv } = await sshd.start({ stateDir, log: () => undefined });
  try {
    await compareAll(sshEnv);
  } finally {
    // Stopped however the bench ends: a failed round (a full disk, say) once left the sshd running, holding the
    // bench's file system.
    await sshd.stop({ stateDir });
  }
}

async function compareAll(sshEnv: { ESHELL_LOGIN_NODES: string; ESHELL_CA_KEY: string }) {
  const sshPort = Number(/127\.0\.0\.1:(\d+)/.exec(sshEnv.ESHELL_LOGIN_NODES)![1]);
  // A user key and a certificate of the sshd's CA for it, as the E-Shell signs them.
  const key = path.join(tmp, 'id');
  await sh('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  await sh('ssh-keygen', [
    '-q',
    '-s',
    sshEnv.ESHELL_CA_KEY,
    '-I',
    'bench',
    '-n',
    user,
    '-V',
    '+4h',
    `${key}.pub`,
  ]);
  const sshArgs = (port: number) => [
    '-i',
    key,
    '-p',
    String(port),
    '-c',
    'aes128-gcm@openssh.com',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'LogLevel=ERROR',
    '-o',
    'BatchMode=yes',
  ];
  const sshCmd = (port: number) => ['ssh', ...sshArgs(port)].join(' ');
  const at = `${user}@127.0.0.1`;
  const scp = (port: number, from: string, to: string) =>
    sh('scp', ['-q', ...sshArgs(port).map((a) => (a === '-p' ? '-P' : a)), from, to], { maxBuffer: MiB });
  const rsync = (port: number, from: string, to: string, ...flags: string[]) =>
    sh('rsync', ['-a', ...flags, '-e', sshCmd(port), from, to]);
  const tarSsh = (port: number, dir: string, into: string) =>
    sh('sh', [
      '-c',
      `tar -C ${JSON.stringify(path.dirname(dir))} -cf - ${JSON.stringify(path.basename(dir))} | ${sshCmd(port)} ${at} "mkdir -p '${into}' && tar -C '${into}' -xf -"`,
    ]);
  const owned = (p: string) => {
    fs.mkdirSync(p, { recursive: true });
    fs.chownSync(p, idOf(user), idOf(user));
  };
  const server = bench.server.child.pid!;

  /**
   * Alternating rounds of each way of moving `what`: every way starts from the same cache state (`settle`), its
   * result removed after it, or with many files handed to `cleanLater`: on an ext4 without a journal (this VM's
   * root) each file created in the next minutes scans past the inodes just freed (the kernel's `recently_deleted`),
   * so a way run after another's removal paid for it (PERFORMANCE.md, "Small files and this VM's disk"). The client's own CPU (this process) and efile's (its whole process tree) per GiB.
   */
  async function compare(
    title: string,
    bytes: number,
    ways: Record<
      string,
      { run: (r: number) => Promise<unknown>; clean: (r: number) => void; client?: boolean }
    >,
    warm?: string,
    cleanLater?: (() => void)[],
  ) {
    const times: Record<string, number[]> = {};
    const cpu: Record<string, { client: number[]; server: number[] }> = {};
    for (let r = 0; r < ROUNDS; r++) {
      const line: string[] = [];
      for (const [name, way] of Object.entries(ways)) {
        settle(warm);
        const s0 = treeCpu(server);
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        await way.run(r);
        const t = secs(t0);
        if (way.client) {
          const c = process.cpuUsage(c0);
          (cpu[name] ??= { client: [], server: [] }).client.push((c.user + c.system) / 1e6);
          cpu[name].server.push(treeCpu(server) - s0);
        }
        (times[name] ??= []).push(t);
        line.push(`${name} ${t.toFixed(1)} s`);
        if (cleanLater) cleanLater.push(() => way.clean(r));
        else way.clean(r);
      }
      say(`  ${title}, round ${r + 1}: ${line.join(', ')}`);
    }
    const gib = bytes / 2 ** 30;
    const fr = median(times.fastrans!);
    const peers = Object.keys(times)
      .filter((n) => n !== 'fastrans')
      .map(
        (n) => `${n} ${median(times[n]!).toFixed(1)} s (fastrans ${(median(times[n]!) / fr).toFixed(2)}×)`,
      );
    const perGib = Object.entries(cpu).map(
      ([n, c]) =>
        `${n} CPU s per GiB: client ${(median(c.client) / gib).toFixed(1)}, efile ${(median(c.server) / gib).toFixed(1)}`,
    );
    say(`${title}: fastrans ${fr.toFixed(1)} s; ${peers.join('; ')}; ${perGib.join('; ')}`);
  }

  const runnerDirect = bench.runnerAt([bench.base], 'cfg');
  const httpRunner = bench.runnerAt([bench.base], 'cfg-http', false);
  const large = async (label: string, size: number, port: number, runner: Runner) => {
    const src = path.join(tmp, 'large.bin');
    writeRandomFile(src, size);
    await compare(
      `${label}: upload of one ${size / MiB} MiB file`,
      size,
      {
        scp: {
          run: () => scp(port, src, `${at}:${home}/scp.bin`),
          clean: () => fs.rmSync(path.join(home, 'scp.bin')),
        },
        // scp returns while much of the file is still only in the page cache; the client returns once the file is
        // on disk under its final name (fdatasync'd before the rename). `sync FILE` (an fsync of it) after scp is
        // the like-for-like figure, as rsync --fsync is for many files.
        'scp, then sync': {
          run: async () => {
            await scp(port, src, `${at}:${home}/scps.bin`);
            await sh('sync', [path.join(home, 'scps.bin')]);
          },
          clean: () => fs.rmSync(path.join(home, 'scps.bin')),
        },
        fastrans: {
          client: true,
          run: (r) => transfer(runner, () => runner.addUpload(src, `${HOME}/fr${r}`)),
          clean: (r) => fs.rmSync(path.join(home, `fr${r}`), { recursive: true }),
        },
      },
      src,
    );
    const remote = path.join(home, 'down.bin');
    fs.renameSync(src, remote);
    fs.chownSync(remote, idOf(user), idOf(user));
    const down = path.join(tmp, 'down');
    fs.mkdirSync(down, { recursive: true });
    await compare(`${label}: download of the same`, size, {
      scp: {
        run: () => scp(port, `${at}:${remote}`, path.join(down, 'scp.bin')),
        clean: () => fs.rmSync(path.join(down, 'scp.bin')),
      },
      fastrans: {
        client: true,
        run: (r) =>
          transfer(runner, () => runner.addDownload([`${HOME}/down.bin`], path.join(down, `fr${r}`))),
        clean: (r) => fs.rmSync(path.join(down, `fr${r}`), { recursive: true }),
      },
      // PEERS_AB_RAW=1: the same client with its range downloads through node:http, alternating (range-get.ts).
      ...(process.env.PEERS_AB_RAW === '1' &&
        runner === runnerDirect && {
          'fastrans, node:http ranges': {
            client: true,
            run: (r: number) =>
              transfer(httpRunner, () =>
                httpRunner.addDownload([`${HOME}/down.bin`], path.join(down, `frh${r}`)),
              ),
            clean: (r: number) => fs.rmSync(path.join(down, `frh${r}`), { recursive: true }),
          },
        }),
    });
    fs.rmSync(remote);
  };

  const many = async (label: string, n: number, size: number, port: number, runner: Runner) => {
    // n files in 20 folders, as a results folder of a job array looks.
    const dir = path.join(tmp, 'many');
    smallFiles(dir, n, size);
    const later: (() => void)[] = [];
    await compare(
      `${label}: upload of ${n} files of ${size / 1024} KB`,
      n * size,
      {
        'rsync -a': {
          run: (r) => rsync(port, `${dir}/`, `${at}:${home}/rs${r}/`),
          clean: (r) => fs.rmSync(path.join(home, `rs${r}`), { recursive: true }),
        },
        // The bar is plain rsync, which syncs nothing; with --fsync (each file fsync'd as it is closed) it keeps the
        // promise ours does, that a file under its final name is on disk whole: the like-for-like figure.
        'rsync -a --fsync': {
          run: (r) => rsync(port, `${dir}/`, `${at}:${home}/rsf${r}/`, '--fsync'),
          clean: (r) => fs.rmSync(path.join(home, `rsf${r}`), { recursive: true }),
        },
        'tar | ssh': {
          run: (r) => tarSsh(port, dir, `${home}/tar${r}`),
          clean: (r) => fs.rmSync(path.join(home, `tar${r}`), { recursive: true }),
        },
        fastrans: {
          client: true,
          run: (r) => {
            owned(path.join(home, `fr${r}`));
            return transfer(runner, () => runner.addUpload(dir, `${HOME}/fr${r}`));
          },
          clean: (r) => fs.rmSync(path.join(home, `fr${r}`), { recursive: true }),
        },
      },
      undefined,
      later,
    );
    const remote = path.join(home, 'many');
    await sh('cp', ['-a', dir, remote]);
    await sh('chown', ['-R', `${user}:${user}`, remote]);
    const down = path.join(tmp, 'down-many');
    fs.mkdirSync(down, { recursive: true });
    await compare(
      `${label}: download of the same`,
      n * size,
      {
        'rsync -a': {
          run: (r) => rsync(port, `${at}:${remote}/`, path.join(down, `rs${r}/`)),
          clean: (r) => fs.rmSync(path.join(down, `rs${r}`), { recursive: true }),
        },
        fastrans: {
          client: true,
          run: (r) => transfer(runner, () => runner.addDownload([`${HOME}/many`], path.join(down, `fr${r}`))),
          clean: (r) => fs.rmSync(path.join(down, `fr${r}`), { recursive: true }),
        },
      },
      undefined,
      later,
    );
    for (const clean of later) clean();
    fs.rmSync(remote, { recursive: true });
    fs.rmSync(dir, { recursive: true });
  };

  /**
   * A folder sent again where it went (the command typed again after an interruption, a folder updated in place):
   * rsync compares sizes and times and sends nothing; the client asks efile which files it has byte for byte
   * (`same.action`) and sends none of them. Each tool's first send is not timed; every round is a re-run.
   */
  const again = async (label: string, n: number, size: number, port: number, runner: Runner) => {
    const dir = path.join(tmp, 'again');
    smallFiles(dir, n, size);
    settle();
    let t0 = process.hrtime.bigint();
    await rsync(port, `${dir}/`, `${at}:${home}/again-rs/`);
    const rsFirst = secs(t0);
    owned(path.join(home, 'again-fr'));
    settle();
    t0 = process.hrtime.bigint();
    await transfer(runner, () => runner.addUpload(dir, `${HOME}/again-fr`));
    say(
      `  ${label}: the first send of the ${n} files: rsync -a ${rsFirst.toFixed(1)} s, fastrans ${secs(t0).toFixed(1)} s`,
    );
    await compare(`${label}: the same ${n} files of ${size / 1024} KB uploaded again`, n * size, {
      'rsync -a': { run: () => rsync(port, `${dir}/`, `${at}:${home}/again-rs/`), clean: () => undefined },
      // rsync's quick check takes an equal size and time for equal bytes; with --checksum it reads and hashes every
      // file on both sides, as the client and efile do: the like-for-like figure.
      'rsync -a --checksum': {
        run: () => rsync(port, `${dir}/`, `${at}:${home}/again-rs/`, '--checksum'),
        clean: () => undefined,
      },
      fastrans: {
        client: true,
        run: () => transfer(runner, () => runner.addUpload(dir, `${HOME}/again-fr`)),
        clean: () => undefined,
      },
    });
    // The same folder fetched again into where it went, each tool's first fetch not timed.
    const back = path.join(tmp, 'again-back');
    fs.mkdirSync(path.join(back, 'fr'), { recursive: true });
    await rsync(port, `${at}:${home}/again-rs/`, `${back}/rs/`);
    await transfer(runner, () => runner.addDownload([`${HOME}/again-fr`], path.join(back, 'fr')));
    await compare(`${label}: the same ${n} files of ${size / 1024} KB downloaded again`, n * size, {
      'rsync -a': {
        run: () => rsync(port, `${at}:${home}/again-rs/`, `${back}/rs/`),
        clean: () => undefined,
      },
      'rsync -a --checksum': {
        run: () => rsync(port, `${at}:${home}/again-rs/`, `${back}/rs/`, '--checksum'),
        clean: () => undefined,
      },
      fastrans: {
        client: true,
        run: () => transfer(runner, () => runner.addDownload([`${HOME}/again-fr`], path.join(back, 'fr'))),
        clean: () => undefined,
      },
    });
    for (const d of ['again-rs', 'again-fr']) fs.rmSync(path.join(home, d), { recursive: true });
    fs.rmSync(back, { recursive: true });
    fs.rmSync(dir, { recursive: true });
  };

  if (section('large')) await large('same machine', LARGE, sshPort, runnerDirect);
  if (section('again')) await again('same machine', AGAIN, 1024 * 1024, sshPort, runnerDirect);
  if (section('small')) await many('same machine', FILES, 10 * 1024, sshPort, runnerDirect);
  if (section('tiny')) await many('same machine', TINY, 1024, sshPort, runnerDirect);
  if (section('long-large') || section('long-small') || section('long-again')) {
    const efilePort = Number(new URL(bench.base).port);
    const sshLink = await longLink({ host: '127.0.0.1', port: sshPort }, 20, 2 * MiB);
    const efileLink = await longLink({ host: '127.0.0.1', port: efilePort }, 20, 2 * MiB);
    const runnerLong = bench.runnerAt([`http://127.0.0.1:${efileLink.port}`], 'cfg-long');
    try {
      if (section('long-large'))
        await large('long link (20 ms each way, 2 MiB in flight)', LONG, sshLink.port, runnerLong);
      if (section('long-small'))
        await many('long link (20 ms each way, 2 MiB in flight)', FILES, 10 * 1024, sshLink.port, runnerLong);
      if (section('long-again'))
        await again(
          'long link (20 ms each way, 2 MiB in flight)',
          AGAIN,
          1024 * 1024,
          sshLink.port,
          runnerLong,
        );
    } finally {
      await runnerLong.close();
      await sshLink.close();
      await efileLink.close();
    }
  }
  await runnerDirect.close();
}

runFastransBench(main, bench);
