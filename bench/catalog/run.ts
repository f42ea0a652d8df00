/**
 * Catalogue benchmark: seeds 100,000 models and 100,000 images into a fresh DATA_DIR, starts the real portal
 * (apps/portal/dist/server.js) as its own process, and loads `POST /model-zoo/model/list` (keyword + two labels +
 * page 1) with autocannon in a third process. In the same run, a bare Fastify route (bench/catalog/bare.ts) answers
 * the same call with the portal's own answer as a constant, and the ratio of the two is the bar (issue 14 §8).
 * Writes the figures into the "## Catalogue" section of docs/PERFORMANCE.md.
 *
 *   npm run catalog -w bench                       # 50 connections, 20 s
 *   npm run catalog -w bench -- --duration 5       # a quick run
 *   flags: --duration s  --connections n  --items n  --no-build  --no-write  --keep
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openPortalDeps, readPortalConfig, seedSyntheticCatalog } from '@hpc/portal';
import { freePort } from '../../test-support/built-portal';

/** The bar: p99 under 25 ms, and at least half the requests per second of the bare route. */
const GOAL = { p99Ms: 25, ratio: 0.5 };
const ROUTE = '/model-zoo/model/list';
/** The question of the benchmark: a keyword and two labels, first page. */
const QUERY = { keyword: 'qwen', labels: ['pytorch', 'text-generation'], pageNum: 1, pageSize: 20 };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '50' },
    items: { type: 'string', default: '100000' },
    'no-build': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const duration = Number(flags.duration);
const connections = Number(flags.connections);
const items = Number(flags.items);

interface LoadResult {
  rps: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function machine() {
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  return {
    cpu: model,
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`portal exited with ${child.exitCode}`);
    try {
      const res = await fetch(url + ROUTE, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(QUERY),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('portal did not become ready');
}

/** Runs bench/catalog/load.ts in its own process (autocannon must not share the server's event loop). */
function load(url: string, seconds: number, conns: number, bodies: unknown[]): Promise<LoadResult> {
  const input = JSON.stringify({ url, path: ROUTE, connections: conns, duration: seconds, bodies });
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench/catalog/load.ts'), input],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

/** Starts the bare route (bench/catalog/bare.ts) answering `body` on `port`; resolves once it listens. */
function startBare(port: number, body: string): Promise<ChildProcess> {
  const input = JSON.stringify({ port, path: ROUTE, body });
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/catalog/bare.ts'), input],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(child);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`bare route exited with ${code}`)));
  });
}

/** Turns of the portal and the bare route (see main). */
const ROUNDS = 4;

/**
 * One result from the rounds of a server: requests per second over all of them; each latency figure the median of
 * the rounds' (a round disturbed by another process on the shared machine does not decide it); the worst max.
 */
function combine(runs: LoadResult[]): LoadResult {
  const median = (pick: (r: LoadResult) => number) => {
    const v = runs.map(pick).sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
  };
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((n, r) => n + pick(r), 0);
  return {
    rps: sum((r) => r.rps) / runs.length,
    total: sum((r) => r.total),
    p50: median((r) => r.p50),
    p90: median((r) => r.p90),
    p99: median((r) => r.p99),
    max: Math.max(...runs.map((r) => r.max)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
  };
}

const rssMiB = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

/** Distinct questions (keywords × labels × pages), more than the answer cache holds, to measure the index itself. */
function variedQueries(): unknown[] {
  const keywords = [
    'qwen',
    'deepseek',
    'llama',
    'chat',
    'yolo',
    'bert',
    '微调',
    '模型',
    'whisper',
    'ft1',
    'ft2',
    'lab',
  ];
  const labelSets = [
    [],
    ['pytorch'],
    ['pytorch', 'text-generation'],
    ['bf16'],
    ['vision', 'fp16'],
    ['apache-2.0'],
  ];
  const out: unknown[] = [];
  for (let page = 1; page <= 12; page++) {
    for (const keyword of keywords)
      for (const labels of labelSets) out.push({ keyword, labels, pageNum: page });
  }
  return out;
}

function section(
  m: ReturnType<typeof machine>,
  fixed: LoadResult,
  bare: LoadResult,
  varied: LoadResult,
  rss: number,
  seedMs: number,
  load1: [number, number],
) {
  const ratio = fixed.rps / bare.rps;
  const met = fixed.p99 < GOAL.p99Ms && ratio >= GOAL.ratio && fixed.non2xx === 0 && fixed.errors === 0;
  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.non2xx + r.errors + r.timeouts} |`;
  return `## Catalogue

\`bench/catalog\` (\`npm run catalog -w bench\`): ${items.toLocaleString('en')} models and ${items.toLocaleString('en')} images
seeded into a fresh SQLite \`DATA_DIR\` (in ${(seedMs / 1000).toFixed(1)} s), the real portal started alone
(\`node apps/portal/dist/server.js\`, \`LOG_LEVEL=warn\`), and autocannon in a separate process: ${connections}
connections for ${duration} s on \`POST ${ROUTE}\`.

In the same run, a bare Fastify route (\`bench/catalog/bare.ts\`, its own process) answers the same call with the
portal's answer as a constant: the portal's own work is what it costs beyond that. The two take turns in
${ROUNDS} runs of ${Math.max(1, Math.round(duration / ROUNDS))} s each (req/s over all turns, latencies the median of the turns'), so that
the shared machine's changing load falls on both alike.

Goal (issue 14 §8): for the fixed question \`${JSON.stringify(QUERY)}\`, p99 < ${GOAL.p99Ms} ms and at least
${GOAL.ratio}× the bare route's req/s. Ratio: **${ratio.toFixed(2)}×**. **${met ? 'Met' : 'Not met'}.**

| question | req/s | p50 ms | p90 ms | p99 ms | max ms | errors |
| --- | --- | --- | --- | --- | --- | --- |
${row('fixed (keyword + two labels, page 1)', fixed)}
${row('bare Fastify route, same answer as a constant', bare)}
${row(`varied (${variedQueries().length} distinct questions, mostly cache misses)`, varied)}

Portal memory after the runs: ${rss} MiB resident (both indexes loaded).
Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.kernel}, Node ${m.node}; the load generator shares
these cores with the server, so the figures are a lower bound of what the portal alone would do. The machine is
shared: its 1-minute load average was ${load1[0].toFixed(1)} before and ${load1[1].toFixed(1)} after the fixed and
bare runs (above ${m.cores} means other processes were competing for the cores during the measurement; the ratio,
measured in the same minutes, is the figure that holds).

Why it is fast: each portal instance keeps an in-memory index per catalogue (search text of both languages in one
string, label postings, pre-sorted orders) and a small LRU of whole answers, invalidated by a version row re-read
at most once a second (see \`apps/portal/src/features/catalog/catalog-index.ts\`). The fixed question is answered
from the LRU; the varied one shows the index path (substring scan of 100,000 items plus one database read of the
page's 20 cards).
`;
}

async function main() {
  const m = machine();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-bench-catalog-'));
  console.log(`data: ${dataDir}\nseeding ${items} models and ${items} images…`);
  const t0 = Date.now();
  // The portal's own migrations, no demo data: the synthetic catalogue fills the empty tables.
  const deps = await openPortalDeps(
    readPortalConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent' }),
  );
  await seedSyntheticCatalog(deps.db, { models: items, images: items });
  await deps.close();
  const seedMs = Date.now() - t0;
  console.log(`seeded in ${(seedMs / 1000).toFixed(1)} s`);

  if (!flags['no-build'])
    execFileSync(process.execPath, ['scripts/build-servers.mjs'], { cwd: root, stdio: 'inherit' });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, 'apps/portal/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitReady(url, server);
    await load(url, 3, 10, variedQueries()); // warm-up: JIT, the image index stays cold (not asked)
    console.log(`load: ${connections} connections × ${duration} s, fixed question…`);
    // The yardstick: the portal's own answer as a constant, from a bare route.
    const answer = await (
      await fetch(url + ROUTE, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(QUERY),
      })
    ).text();
    const barePort = await freePort();
    const bareServer = await startBare(barePort, answer);
    const bareUrl = `http://127.0.0.1:${barePort}`;
    const loadBefore = os.loadavg()[0]!;
    let fixed: LoadResult;
    let bare: LoadResult;
    try {
      await load(bareUrl, 3, 10, [QUERY]); // warm-up, as the portal had
      // Portal and bare route take turns in ROUNDS short runs, so that a change in the shared machine's load falls
      // on both alike; the ratio is what the bar is about.
      const portalRuns: LoadResult[] = [];
      const bareRuns: LoadResult[] = [];
      const slice = Math.max(1, Math.round(duration / ROUNDS));
      for (let round = 0; round < ROUNDS; round++) {
        portalRuns.push(await load(url, slice, connections, [QUERY]));
        bareRuns.push(await load(bareUrl, slice, connections, [QUERY]));
      }
      fixed = combine(portalRuns);
      bare = combine(bareRuns);
    } finally {
      bareServer.removeAllListeners('exit');
      bareServer.kill('SIGTERM');
    }
    const loadAfter = os.loadavg()[0]!;
    console.log('fixed', fixed);
    console.log('bare', bare, `ratio ${(fixed.rps / bare.rps).toFixed(2)}`);
    console.log('varied questions…');
    const varied = await load(url, duration, connections, variedQueries());
    console.log('varied', varied);
    // Load the image index too, so the memory figure covers both catalogues.
    await fetch(url + '/image-center/image/list', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const rss = rssMiB(server.pid!);
    const text = section(m, fixed, bare, varied, rss, seedMs, [loadBefore, loadAfter]);
    console.log('\n' + text);
    if (!flags['no-write']) {
      const doc = path.join(root, 'docs/PERFORMANCE.md');
      const before = fs.readFileSync(doc, 'utf8');
      const after = before.replace(/## Catalogue\n[\s\S]*?(?=\n## |$)/, text);
      if (after === before && !before.includes(text))
        throw new Error('no "## Catalogue" section in docs/PERFORMANCE.md');
      fs.writeFileSync(doc, after);
      console.log('written to docs/PERFORMANCE.md');
    }
  } finally {
    server.kill('SIGTERM');
    if (!flags.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
