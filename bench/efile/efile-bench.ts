/**
 * E-File benchmarks against peers, side by side in one run (issue 4 §8). Not a test: figures go to
 * docs/PERFORMANCE.md "## E-File service". Run: `node --import tsx bench/efile/efile-bench.ts`
 * (BENCH_UPLOAD_MIB, BENCH_DOWNLOAD_MIB, BENCH_ZIP_FILES, BENCH_LIST_ENTRIES scale it down for a quick look).
 */
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair } from 'jose';
import { signClusterToken } from '@hpc/server-kit';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverTs = path.resolve(here, '../../apps/efile/src/server.ts');
const MiB = 1024 * 1024;
const UPLOAD = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * MiB;
const DOWNLOAD = Number(process.env.BENCH_DOWNLOAD_MIB ?? 2048) * MiB;
const ZIP_FILES = Number(process.env.BENCH_ZIP_FILES ?? 10_000);
const LIST_ENTRIES = Number(process.env.BENCH_LIST_ENTRIES ?? 100_000);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'efile-bench-'));
const root = path.join(tmp, 'root');
const home = path.join(root, 'public/home/demo');
fs.mkdirSync(home, { recursive: true });
const secs = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const port = 21000 + Math.floor(Math.random() * 10000);
const base = `http://127.0.0.1:${port}`;
const results: string[] = [];
const say = (s: string) => {
  console.log(s);
  results.push(s);
};

function writeRandomFile(file: string, size: number) {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(4 * MiB);
  for (let off = 0; off < size; off += block.length) {
    for (let i = 0; i < block.length; i += 4096) block.writeUInt32LE((off + i) >>> 0, i);
    fs.writeSync(fd, block, 0, Math.min(block.length, size - off));
  }
  fs.closeSync(fd);
}

async function main() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA' }] };
  const jwksServer = http.createServer((_q, r) => r.end(JSON.stringify(jwks))).listen(0, '127.0.0.1');
  await new Promise((r) => jwksServer.once('listening', r));
  const token = await signClusterToken(privateKey, 'k1', {
    sub: 'bench',
    aud: 'bench',
    cun: 'demo',
    home: '/public/home/demo',
    paths: [],
    st: 'Normal',
    exp_acct: null,
  });
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', serverTs], {
    stdio: 'inherit',
    env: {
      ...process.env,
      UV_THREADPOOL_SIZE: '16',
      EFILE_CLUSTER_ID: 'bench',
      EFILE_PORT: String(port),
      EFILE_HOST: '127.0.0.1',
      EFILE_FS_ROOT: root,
      DATA_DIR: path.join(tmp, 'data'),
      LOG_LEVEL: 'warn',
      EFILE_FOLDER_FILE_LIMIT: '1000000',
      EFILE_JWKS_URL: `http://127.0.0.1:${(jwksServer.address() as { port: number }).port}/`,
    },
  });
  for (
    let i = 0;
    i < 200 &&
    !(await fetch(`${base}/check.action`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const H = { token };
  say(
    `Machine: ${os.cpus()[0]?.model} ×${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.release()}, Node ${process.version}`,
  );

  // 1. Upload: chunk protocol (1 MiB, 3 in flight) vs one streaming PUT.
  const src = path.join(tmp, 'upload.bin');
  writeRandomFile(src, UPLOAD);
  const blob = await fs.openAsBlob(src);
  const chunks = Math.max(1, Math.floor(UPLOAD / MiB));
  let t0 = process.hrtime.bigint();
  let next = 1;
  const worker = async () => {
    while (next <= chunks) {
      const n = next++;
      const start = (n - 1) * MiB;
      const end = n === chunks ? UPLOAD : start + MiB;
      const fd = new FormData();
      const p = {
        chunkNumber: n,
        chunkSize: MiB,
        currentChunkSize: end - start,
        totalSize: UPLOAD,
        identifier: `${UPLOAD}-chunkedbin`,
        filename: 'chunked.bin',
        relativePath: 'chunked.bin',
        totalChunks: chunks,
        path: '/public/home/demo',
      };
      for (const [k, v] of Object.entries(p)) fd.append(k, String(v));
      fd.append('file', blob.slice(start, end), 'chunked.bin');
      const r = await fetch(`${base}/chunkUpload.action`, { method: 'POST', body: fd, headers: H });
      if (r.status !== 200) throw new Error(`chunk ${n}: ${r.status} ${await r.text()}`);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  const chunked = UPLOAD / MiB / secs(t0);
  const cmd = (await (
    await fetch(`${base}/linuxUpload.action?path=/public/home/demo`, { headers: H })
  ).json()) as { data: { url: string } };
  t0 = process.hrtime.bigint();
  execFileSync('curl', ['-fsS', '-o', '/dev/null', '-T', src, cmd.data.url + 'put.bin']);
  const put = UPLOAD / MiB / secs(t0);
  say(
    `Upload ${UPLOAD / MiB} MiB: chunked ${chunked.toFixed(0)} MiB/s, streaming PUT ${put.toFixed(0)} MiB/s, ratio ${(chunked / put).toFixed(2)} (goal ≥ 0.6)`,
  );
  fs.rmSync(src);

  // 2. Download (warm cache) vs nginx serving the same file.
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
      ]).toString(),
    ) / MiB;
  curlSpeed(`http://127.0.0.1:${nginxPort}/big.bin`); // warm the page cache
  const ef = Math.max(
    curlSpeed(`${base}/download.action?path=/public/home/demo/big.bin`),
    curlSpeed(`${base}/download.action?path=/public/home/demo/big.bin`),
  );
  const ng = Math.max(
    curlSpeed(`http://127.0.0.1:${nginxPort}/big.bin`),
    curlSpeed(`http://127.0.0.1:${nginxPort}/big.bin`),
  );
  say(
    `Download ${DOWNLOAD / MiB} MiB: efile ${ef.toFixed(0)} MiB/s, nginx ${ng.toFixed(0)} MiB/s, ratio ${(ef / ng).toFixed(2)} (goal ≥ 0.8)`,
  );
  nginx.kill('SIGTERM');
  fs.rmSync(big);

  // 3. Zip of ZIP_FILES × 100 KB vs `zip -r -0` to /dev/null; peak RSS of the server.
  const dir = path.join(home, 'many');
  fs.mkdirSync(dir);
  const payload = Buffer.alloc(100 * 1000, 7);
  for (let i = 0; i < ZIP_FILES; i++) fs.writeFileSync(path.join(dir, `f${i}.dat`), payload);
  t0 = process.hrtime.bigint();
  execFileSync('bash', ['-c', `cd '${home}' && zip -q -r -0 - many > /dev/null`]);
  const zipS = secs(t0);
  t0 = process.hrtime.bigint();
  execFileSync('curl', [
    '-fsS',
    '-o',
    '/dev/null',
    '-H',
    `token: ${token}`,
    `${base}/download.action?path=/public/home/demo/many`,
  ]);
  const efS = secs(t0);
  const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
  say(
    `Zip ${ZIP_FILES} × 100 KB: efile ${efS.toFixed(2)} s, zip -r -0 ${zipS.toFixed(2)} s, ratio ${(zipS / efS).toFixed(2)} (goal ≥ 0.8); server peak RSS ${Math.round(Number(hwm) / 1024)} MB (goal < 200)`,
  );
  fs.rmSync(dir, { recursive: true });

  // 4. Listing of LIST_ENTRIES entries: first page, next pages, raw readdir.
  const ldir = path.join(home, 'list');
  fs.mkdirSync(ldir);
  for (let i = 0; i < LIST_ENTRIES; i++) fs.writeFileSync(path.join(ldir, `entry-${i}`), '');
  t0 = process.hrtime.bigint();
  fs.readdirSync(ldir);
  const raw = ms(t0);
  const page = async (n: number) => {
    const t = process.hrtime.bigint();
    const r = await fetch(`${base}/list.action?path=/public/home/demo/list&pageNum=${n}&pageSize=20`, {
      headers: H,
    });
    await r.json();
    return ms(t);
  };
  const first = await page(1);
  const nexts = [await page(2), await page(3), await page(500)];
  say(
    `List ${LIST_ENTRIES} entries: first page ${first.toFixed(0)} ms (goal < 200), next pages ${nexts.map((x) => x.toFixed(0)).join('/')} ms (goal < 50), raw readdirSync ${raw.toFixed(0)} ms`,
  );

  server.kill('SIGTERM');
  jwksServer.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.writeFileSync(path.join(here, 'last-run.txt'), results.join('\n') + '\n');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
