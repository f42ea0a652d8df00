/**
 * E-File benchmarks against peers, side by side in one run (issue 4 §8). Not a test: figures go to
 * docs/PERFORMANCE.md "## E-File service". Run: `node --import tsx bench/efile/efile-bench.ts`
 * (BENCH_UPLOAD_MIB, BENCH_DOWNLOAD_MIB, BENCH_ZIP_FILES, BENCH_LIST_ENTRIES scale it down for a quick look;
 * BENCH_ONLY=upload,download,zip,list,load runs some sections; BENCH_PROFILE=<dir> writes the server's CPU profile
 * there with `node --cpu-prof`, for finding where the time goes). Every line carries the 1-minute load average,
 * since the 2 cores are shared.
 */
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { cpuOf, median, MiB, ms, reporter, secs, writeRandomFile } from '../bench-kit';
import { uploadChunked } from './chunk-client';
import { loadRun } from './load-run';
import { startEfileProcess } from '../../test-support/efile-process';
import { efileCalls, startStandInPortal, warmUp } from '../../test-support/stand-in-portal';

const here = path.dirname(fileURLToPath(import.meta.url));
// The server as operators run it: the esbuild bundle (`npm run build:servers`, done here first), not `tsx`, whose
// loader thread and transform cache alone add ~50 MB of RSS. BENCH_SERVER=<path of another checkout's
// apps/efile/src/server.ts or dist/server.js> measures that one (before/after comparisons).
const serverEntry = process.env.BENCH_SERVER ?? path.resolve(here, '../../apps/efile/dist/server.js');
const UPLOAD = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * MiB;
const DOWNLOAD = Number(process.env.BENCH_DOWNLOAD_MIB ?? 2048) * MiB;
const ZIP_FILES = Number(process.env.BENCH_ZIP_FILES ?? 10_000);
const LIST_ENTRIES = Number(process.env.BENCH_LIST_ENTRIES ?? 100_000);
const ONLY = process.env.BENCH_ONLY?.split(',');
const run = (section: string) => !ONLY || ONLY.includes(section);
const PROFILE = process.env.BENCH_PROFILE;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'efile-bench-'));
const root = path.join(tmp, 'root');
const home = path.join(root, 'public/home/demo');
fs.mkdirSync(home, { recursive: true });
const port = 21000 + Math.floor(Math.random() * 10000);
const base = `http://127.0.0.1:${port}`;
const { say, lines: results } = reporter();

let server: ChildProcess | undefined;

async function main() {
  const portal = await startStandInPortal('demo', '/public/home/demo');
  const { token } = portal;
  if (!process.env.BENCH_SERVER)
    execFileSync(process.execPath, ['scripts/build-servers.mjs'], { cwd: path.resolve(here, '../..') });
  const started = await startEfileProcess({
    entry: serverEntry,
    nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [],
    log: 'inherit',
    env: {
      UV_THREADPOOL_SIZE: '64',
      EFILE_CLUSTER_ID: 'bench',
      EFILE_PORT: String(port),
      EFILE_FS_ROOT: root,
      DATA_DIR: path.join(tmp, 'data'),
      // At least info: the server's "listening" line is what the start waits for.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      EFILE_FOLDER_FILE_LIMIT: '1000000',
      EFILE_JWKS_URL: portal.jwksUrl,
      EFILE_SERVICE_SECRET: 'bench',
    },
  });
  server = started.child;
  const H = { token };
  // Fetch the JWKS now: later sections block this process in execFileSync (curl, zip), and a first key fetch
  // then would time out against the JWKS server living in this same process.
  const efile = efileCalls(base, token);
  await warmUp(efile, '/public/home/demo');
  const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
  say(
    `Server RSS after start ${Math.round(Number(rss) / 1024)} MB; machine: ${os.cpus()[0]?.model} ×${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.release()}, Node ${process.version}`,
  );
  let t0: bigint;

  if (run('upload')) {
    // 1. Upload: chunk protocol (1 MiB, 3 in flight, test GET + multipart POST per chunk) vs one streaming PUT, and
    // the same chunk client against bare-receiver.mjs (the protocol's ceiling on this machine). Each method runs a
    // warm-up round and then three measured rounds in a row; medians compared. Not interleaved: on this VM a
    // method's rounds run at up to 2-3x the server CPU right after another method wrote (fresh page-cache memory is
    // faulted in from the host; the first chunked round of a run costs 5.5 s of server CPU, the third 1.4 s), and
    // interleaving charged that to every chunked round. BENCH_INTERLEAVE=1 interleaves them for comparison.
    const src = path.join(tmp, 'upload.bin');
    writeRandomFile(src, UPLOAD);
    const cmd = { data: await efile.linuxUpload('/public/home/demo') };
    const barePort = port + 2;
    const bare = spawn(
      process.execPath,
      [path.join(here, 'bare-receiver.mjs'), String(barePort), path.join(tmp, 'bare.out')],
      { stdio: 'inherit' },
    );
    await new Promise((r) => setTimeout(r, 300));
    const lane = { token, file: src, size: UPLOAD, chunkSize: MiB, inFlight: 3 };
    type Method = 'chunked' | 'put' | 'bare';
    /** One upload by `method`: MiB/s, server CPU s, this process's (the chunk client's) CPU s. */
    const pid = server.pid!;
    const once = async (method: Method) => {
      execFileSync('sync'); // no writeback of earlier files throttling the timed writes (each timed part starts clean)
      const c0 = cpuOf(pid);
      const me0 = process.cpuUsage();
      t0 = process.hrtime.bigint();
      if (method === 'chunked') {
        const { skipped } = await uploadChunked({
          ...lane,
          base,
          path: '/public/home/demo',
          name: 'chunked.bin',
        });
        if (skipped) throw new Error(`${skipped} chunks reported as already stored`);
      } else if (method === 'put') {
        // Not execFileSync: the stand-in portal in this process answers the PUT's owner-rights check meanwhile.
        await promisify(execFile)('curl', ['-fsS', '-o', '/dev/null', '-T', src, cmd.data.url + 'put.bin']);
      } else {
        await uploadChunked({ ...lane, base: `http://127.0.0.1:${barePort}`, path: '/', name: 'bare.bin' });
      }
      const speed = UPLOAD / MiB / secs(t0);
      const me = process.cpuUsage(me0);
      const cpu = { server: cpuOf(pid) - c0, client: (me.user + me.system) / 1e6 };
      if (method === 'chunked') execFileSync('cmp', [src, path.join(home, 'chunked.bin')]); // the bytes, in place
      if (method === 'bare')
        await fetch(`http://127.0.0.1:${barePort}/rotate`); // drops its file
      else fs.rmSync(path.join(home, `${method}.bin`));
      return { speed, ...cpu };
    };
    const methods: Method[] = ['chunked', 'put', 'bare'];
    const results = new Map<Method, Awaited<ReturnType<typeof once>>[]>(methods.map((m) => [m, []]));
    if (process.env.BENCH_INTERLEAVE) {
      for (let round = 0; round < 4; round++)
        for (const m of methods) {
          const r = await once(m);
          if (round > 0) results.get(m)!.push(r);
        }
    } else {
      for (const m of methods) {
        await once(m); // warm-up
        for (let round = 0; round < 3; round++) results.get(m)!.push(await once(m));
      }
    }
    bare.kill();
    const f = (xs: number[], d = 0) => xs.map((x) => x.toFixed(d)).join('/');
    const med = (m: Method) => median(results.get(m)!.map((r) => r.speed));
    const all = (m: Method, k: 'speed' | 'server' | 'client', d = 0) =>
      f(
        results.get(m)!.map((r) => r[k]),
        d,
      );
    say(
      `Upload ${UPLOAD / MiB} MiB ×3 (${process.env.BENCH_INTERLEAVE ? 'interleaved' : 'in a row'}): chunked median ${med('chunked').toFixed(0)} MiB/s (${all('chunked', 'speed')}), streaming PUT median ${med('put').toFixed(0)} MiB/s (${all('put', 'speed')}), ratio of medians ${(med('chunked') / med('put')).toFixed(2)} (goal ≥ 0.6); same client against a bare receiver median ${med('bare').toFixed(0)} MiB/s (${all('bare', 'speed')}): efile/bare ${(med('chunked') / med('bare')).toFixed(2)}, bare/PUT ${(med('bare') / med('put')).toFixed(2)}; CPU s per round: server chunked ${all('chunked', 'server', 1)}, client chunked ${all('chunked', 'client', 1)}, server PUT ${all('put', 'server', 1)}`,
    );
    fs.rmSync(src);
  }

  if (run('download')) {
    // 2. Download (warm cache) vs nginx serving the same file: five alternating runs each, medians compared.
    const big = path.join(home, 'big.bin');
    writeRandomFile(big, DOWNLOAD);
    const nginxPort = port + 1;
    const conf = path.join(tmp, 'nginx.conf');
    fs.writeFileSync(
      conf,
      `daemon off; user root; worker_processes 1; pid ${tmp}/nginx.pid; error_log ${tmp}/nginx.err;
events {} http { access_log off; sendfile on; server { listen 127.0.0.1:${nginxPort}; root ${home}; } }`,
    );
    const nginx = spawn('nginx', ['-c', conf, '-p', tmp], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 500));
    const curlSpeed = (url: string) =>
      Number(
        execFileSync('curl', [
          '-fsS',
          '-o',
          '/dev/null',
          '-w',
          '%{speed_download}',
          '-H',
          `token: ${token}`,
          url,
        ]),
      ) / MiB;
    const ngUrl = `http://127.0.0.1:${nginxPort}/big.bin`;
    const efUrl = `${base}/download.action?path=/public/home/demo/big.bin`;
    curlSpeed(ngUrl); // warm the page cache
    const ef: number[] = [];
    const ng: number[] = [];
    for (let i = 0; i < 5; i++) {
      ef.push(curlSpeed(efUrl));
      ng.push(curlSpeed(ngUrl));
    }
    const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
    say(
      `Download ${DOWNLOAD / MiB} MiB: efile median ${median(ef).toFixed(0)} MiB/s (${f(ef)}), nginx median ${median(ng).toFixed(0)} MiB/s (${f(ng)}), ratio of medians ${(median(ef) / median(ng)).toFixed(2)} (goal ≥ 0.8)`,
    );
    nginx.kill('SIGTERM');
    fs.rmSync(big);
  }

  if (run('zip')) {
    // 3. Zip of ZIP_FILES × 100 KB vs `zip -r -0` to /dev/null; peak RSS of the server.
    const dir = path.join(home, 'many');
    fs.mkdirSync(dir);
    const payload = Buffer.alloc(100 * 1000, 7);
    for (let i = 0; i < ZIP_FILES; i++) fs.writeFileSync(path.join(dir, `f${i}.dat`), payload);
    // The zip's own peak: reset the server's VmHWM (clear_refs 5), which the upload and download sections raised.
    fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const rssBefore = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
    t0 = process.hrtime.bigint();
    execFileSync('bash', ['-c', `cd '${home}' && zip -q -r -0 - many > /dev/null`]);
    const zipS = secs(t0);
    t0 = process.hrtime.bigint();
    // -f plus Content-Length: curl fails if the archive comes shorter than announced.
    const got = execFileSync('curl', [
      '-fsS',
      '-o',
      '/dev/null',
      '-w',
      '%{size_download}',
      '-H',
      `token: ${token}`,
      `${base}/download.action?path=/public/home/demo/many`,
    ]);
    const efS = secs(t0);
    if (Number(got) < ZIP_FILES * payload.length) throw new Error(`zip too short: ${String(got)}`);
    const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
    say(
      `Zip ${ZIP_FILES} × 100 KB: efile ${efS.toFixed(2)} s, zip -r -0 ${zipS.toFixed(2)} s, ratio ${(zipS / efS).toFixed(2)} (goal ≥ 0.8); server peak RSS during the zip ${Math.round(Number(hwm) / 1024)} MB (goal < 200), ${Math.round(Number(rssBefore) / 1024)} MB before it`,
    );
    fs.rmSync(dir, { recursive: true });
  }

  if (run('list')) {
    // 4. Listing of LIST_ENTRIES entries: first page, next pages, raw readdir.
    const ldir = path.join(home, 'list');
    fs.mkdirSync(ldir);
    for (let i = 0; i < LIST_ENTRIES; i++) fs.writeFileSync(path.join(ldir, `entry-${i}`), '');
    t0 = process.hrtime.bigint();
    fs.readdirSync(ldir);
    const raw = ms(t0);
    // A new connection per page (agent: false): a pooled socket idle since an earlier section may have been
    // closed by the server's keep-alive timeout, and fetch then fails with "other side closed". So raw http.get,
    // not the typed client (whose fetch pools its sockets).
    const page = (n: number, sort = 'name') =>
      new Promise<number>((resolve, reject) => {
        const t = process.hrtime.bigint();
        const url = `${base}/list.action?path=/public/home/demo/list&pageNum=${n}&pageSize=20&sort=${sort}`;
        http
          .get(url, { agent: false, headers: H }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () => {
              const body = JSON.parse(Buffer.concat(parts).toString()) as { code: string };
              if (body.code !== '0') reject(new Error(`list page ${n}: ${body.code}`));
              else resolve(ms(t));
            });
          })
          .on('error', reject);
      });
    const first = await page(1);
    const nexts = [await page(2), await page(3), await page(500)];
    // Sorted by time: every entry is lstat-ed (through the held folder), the heaviest listing there is.
    const byTime = await page(1, 'mtime');
    t0 = process.hrtime.bigint();
    for (const n of fs.readdirSync(ldir)) fs.lstatSync(path.join(ldir, n));
    const rawStats = ms(t0);
    say(
      `List ${LIST_ENTRIES} entries: first page ${first.toFixed(0)} ms (goal < 200), next pages ${nexts.map((x) => x.toFixed(0)).join('/')} ms (goal < 50), raw readdirSync ${raw.toFixed(0)} ms; sorted by time ${byTime.toFixed(0)} ms, raw readdirSync + lstatSync of each ${rawStats.toFixed(0)} ms`,
    );
    fs.rmSync(ldir, { recursive: true });
  }

  if (run('load')) {
    // 5. 50 parallel uploads and downloads for 30 s, every byte checked (the test suite runs it for 10 s).
    const r = await loadRun({ base, token, home, seconds: 30, workers: 50 });
    say(
      `Load 30 s, 25 uploaders + 25 downloaders: ${r.ops} operations (${r.uploads} uploads, ${r.downloads} downloads), ${r.errors.length} errors (goal 0)${r.errors.length ? ': ' + r.errors.slice(0, 5).join('; ') : ''}`,
    );
  }

  const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
  say(`Server peak RSS over the whole run ${Math.round(Number(hwm) / 1024)} MB`);
  server.kill('SIGTERM');
  await new Promise((r) => server!.once('exit', r));
  portal.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  if (!ONLY) fs.writeFileSync(path.join(here, 'last-run.txt'), results.join('\n') + '\n');
}

main().catch((e: unknown) => {
  console.error(e);
  server?.kill('SIGTERM');
  process.exit(1);
});
