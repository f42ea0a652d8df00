import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { call, type CallScope, type CallTable, type CustomCall } from '../wire/call-table';
import { HandleStore } from '../wire/handle-store';
import { readJson } from '../wire/wire-format';

/** A small service's worker for the kit's own tests: one call of each kind, run as real users. */
export interface KitScope extends CallScope {
  /** A folder every test user may write (markers of the repeatable call). */
  scratch: string;
}

export interface Counter {
  value: number;
  next(): Promise<number>;
  close(): Promise<void>;
}

export interface KitWorker {
  whoami(s: KitScope): Promise<{ uid: number; gid: number; groups: number[]; env: Record<string, string> }>;
  echo(s: KitScope, a: string, b?: number): Promise<{ a: string; b: number | null }>;
  sum(
    s: KitScope,
    label: string,
    body: AsyncIterable<Buffer>,
  ): Promise<{ label: string; bytes: number; sha256: string }>;
  bytes(s: KitScope, n: number): Promise<Buffer>;
  count(s: KitScope, n: number): AsyncIterable<number>;
  steps(s: KitScope, n: number, report: (p: number) => void, signal: AbortSignal): Promise<void>;
  /** Exits the worker in the middle of the call. */
  die(s: KitScope): Promise<void>;
  /** Exits the worker the first time, answers the second (a repeatable call). */
  dieOnce(s: KitScope): Promise<string>;
  counter(s: KitScope, start: number): Promise<Counter>;
  /** In the implementation, not in the table: never reachable. */
  secret(s: KitScope): Promise<string>;
}

const counters = new HandleStore<{ n: number; close(): Promise<void> }>();

/** A handle kept in the worker between requests: the custom kind. */
const counterCall: CustomCall<KitWorker['counter'], KitWorker> = call.custom({
  client: (ctx) => async (s, start) => {
    const { id, value } = await ctx.json<{ id: string; value: number }>(s, 'open', {
      json: { scope: ctx.wireScope(s), start },
    });
    return {
      value,
      next: () => ctx.json<number>(s, 'next', { json: { scope: ctx.wireScope(s), id } }),
      close: () => ctx.json<void>(s, 'close', { json: { scope: ctx.wireScope(s), id } }),
    };
  },
  server: (_impl, ctx) => ({
    routes: {
      open: async (req, res) => {
        const a = await readJson<{ scope: KitScope; start: number }>(req);
        ctx.scopeOf(a.scope);
        const h = { n: a.start, close: async () => undefined };
        ctx.json(res, 200, { result: { id: counters.add(h), value: h.n } });
      },
      next: async (req, res) => {
        const a = await readJson<{ scope: KitScope; id: string }>(req);
        ctx.scopeOf(a.scope);
        ctx.json(res, 200, { result: ++counters.take(a.id).n });
      },
      close: async (req, res) => {
        const a = await readJson<{ scope: KitScope; id: string }>(req);
        ctx.scopeOf(a.scope);
        await counters.close(a.id);
        ctx.json(res, 200, { result: null });
      },
    },
  }),
});

export const kitCalls = {
  whoami: call.plain({ repeatable: true }),
  echo: call.plain(),
  sum: call.upload(1),
  bytes: call.download(),
  count: call.lines(),
  steps: call.progress(),
  die: call.plain(),
  dieOnce: call.plain({ repeatable: true }),
  counter: counterCall,
} satisfies CallTable<KitWorker>;

export const kitWorker: KitWorker = {
  async whoami() {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    return { uid: process.getuid!(), gid: process.getgid!(), groups: process.getgroups!(), env };
  },
  async echo(_s, a, b) {
    return { a, b: b === undefined ? null : b };
  },
  async sum(_s, label, body) {
    const h = crypto.createHash('sha256');
    let bytes = 0;
    for await (const c of body) {
      h.update(c);
      bytes += c.length;
    }
    return { label, bytes, sha256: h.digest('hex') };
  },
  async bytes(_s, n) {
    return Buffer.alloc(n, 7);
  },
  async *count(_s, n) {
    for (let i = 0; i < n; i++) yield i;
  },
  async steps(_s, n, report, signal) {
    for (let i = 0; i < n; i++) {
      signal.throwIfAborted();
      report(i);
      await new Promise((r) => setTimeout(r, 5));
    }
  },
  async die() {
    setImmediate(() => process.exit(3));
    await new Promise(() => undefined);
  },
  async dieOnce(s) {
    const marker = path.join(s.scratch, `died-${process.getuid!()}`);
    if (!fs.existsSync(marker)) {
      fs.writeFileSync(marker, '');
      process.exit(3);
    }
    return `answered by ${process.pid}`;
  },
  counter: () => Promise.reject(new Error('only through the wire')),
  async secret() {
    return 'never';
  },
};
