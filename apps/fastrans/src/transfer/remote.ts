import {
  ApiClient,
  ApiError,
  fastransApi,
  parseEnvelope,
  type FastransCalls,
  type ManifestLine,
} from '@hpc/api-client';
import { sha256OfContentDigest, type TransferFileRef } from '@hpc/contracts';
import { NetworkError, nodeFetch, rangeBodyOf } from './http';
import { RemoteError } from './remote-error';

export { RemoteError };
import { RangeBuffers, sha256Of } from './local';
import { DEFAULT_LIMITS } from '../engine/task';

/**
 * The cluster's efile instances as the client reaches them: requests go round-robin over the servers the portal
 * listed, and a server that fails is skipped for a while (failover). Each server is one `ApiClient` with the typed
 * fast-transfer calls of `@hpc/api-client` over the client's keep-alive pool (`nodeFetch`); the token is the day
 * token of the login, sent in the `token` header and never logged.
 */
export class Remote {
  private next = 0;
  private readonly downUntil = new Map<string, number>();
  private readonly clients = new Map<string, { client: ApiClient; calls: FastransCalls }>();
  /** Consecutive network failures over all servers: the runner reports "proxy closed" past a threshold. */
  failures = 0;
  /** The bodies of download ranges, reused (`giveRange`): each a pooled buffer, or a view of one. */
  private readonly rangePool: RangeBuffers;
  private readonly poolOf = new WeakMap<Buffer, Buffer>();

  constructor(
    readonly servers: string[],
    token: string,
    rangeSize = DEFAULT_LIMITS.rangeSize,
    /** Range downloads read straight into their buffers (`NodeFetchOptions.rawRanges`); the bench compares both. */
    rawRanges = true,
  ) {
    if (servers.length === 0) throw new Error('no server');
    this.rangePool = new RangeBuffers(rangeSize, DEFAULT_LIMITS.streamsTotal);
    const rangeBody = (length: number) => {
      const base = this.rangePool.take(length);
      const view = base.length === length ? base : base.subarray(0, length);
      this.poolOf.set(view, base);
      return view;
    };
    for (const server of servers) {
      // No deadline of the client's own: the socket's inactivity limit (nodeFetch) bounds a call, as a range of
      // 64 MiB on a slow link may rightly take minutes.
      const client = new ApiClient({
        baseUrl: server,
        timeoutMs: 0,
        fetch: nodeFetch({ rangeBody, rawRanges }),
        headers: () => ({ token }),
      });
      this.clients.set(server, { client, calls: fastransApi(client) });
    }
  }

  private pick(): string {
    const now = Date.now();
    for (let i = 0; i < this.servers.length; i++) {
      const s = this.servers[(this.next + i) % this.servers.length]!;
      if ((this.downUntil.get(s) ?? 0) <= now) {
        this.next = (this.next + i + 1) % this.servers.length;
        return s;
      }
    }
    return this.servers[this.next++ % this.servers.length]!;
  }

  /**
   * One call on the next server, its failures in the engine's terms: no answer, or a 5xx other than 507 (disk full
   * is the file's, not the server's), is a NetworkError that marks the server down for 5 s and counts towards
   * "proxy closed"; an envelope refusal is a RemoteError; any other answer is a NetworkError that counts nothing.
   */
  private async via<T>(call: (calls: FastransCalls, client: ApiClient) => Promise<T>): Promise<T> {
    const server = this.pick();
    const { client, calls } = this.clients.get(server)!;
    const down = (msg: string) => {
      this.downUntil.set(server, Date.now() + 5_000);
      return new NetworkError(msg);
    };
    try {
      const out = await call(calls, client);
      this.failures = 0;
      return out;
    } catch (e) {
      // The server answered, and the answer was judged by the call itself.
      if (e instanceof RemoteError || e instanceof NetworkError) {
        this.failures = 0;
        throw e;
      }
      // No answer, or one cut off while its body was read.
      if (e instanceof CutOff || (e instanceof ApiError && e.status === 0)) {
        this.failures++;
        throw down(e.message);
      }
      // Not the server's: a failure of the consumer of a manifest line, say.
      if (!(e instanceof ApiError)) throw e;
      if (e.status >= 500 && e.status !== 507) {
        this.failures = 1;
        throw down(`HTTP ${e.status}`);
      }
      this.failures = 0;
      if (e.kind === 'api') throw new RemoteError(e.code, e.msg, e.data);
      throw new NetworkError(`unexpected answer (HTTP ${e.status})`);
    }
  }

  async begin(files: TransferFileRef[], rangeSize: number, overwrite: boolean) {
    return (await this.via((c) => c.begin(files, rangeSize, overwrite))).files;
  }
  async status(files: TransferFileRef[]) {
    return (await this.via((c) => c.status(files))).files;
  }
  /** `sha256`: the range's own SHA-256, checked by the server while it writes the bytes. */
  range(id: string, n: number, data: Buffer, sha256?: string) {
    return this.via((c) => c.range(id, n, data, sha256));
  }
  /** `rangesSha256`: the hash list of the range digests (servers that check ranges); `sha256`: the whole file's. */
  finalize(id: string, digest: { sha256: string } | { rangesSha256: string }) {
    return this.via((c) => c.finalize(id, digest));
  }
  batch(base: string, tar: Buffer, overwrite: boolean) {
    return this.via((c) => c.batch(base, tar, overwrite));
  }
  /** Which of these small files under `base` the server has already, byte for byte (a folder sent again). */
  async same(base: string, files: { name: string; size: number; sha256: string }[]) {
    return (await this.via((c) => c.same(base, files))).same;
  }
  cancel(ids: string[]) {
    return this.via((c) => c.cancel(ids));
  }

  /** The manifest of remote items, line by line (a folder of any size: nothing is held but one line). */
  manifest(paths: string[], onEntry: (e: ManifestLine) => void | Promise<void>) {
    return this.via(async (c) => {
      const res = await c.manifest(paths);
      if (!String(res.headers.get('content-type')).includes('ndjson') || !res.body)
        throw errorOf(await bytesOf(res));
      const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
      const text = new TextDecoder();
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read().catch(cutOff);
        if (done) break;
        rest += text.decode(value, { stream: true });
        let nl: number;
        while ((nl = rest.indexOf('\n')) !== -1) {
          const line = rest.slice(0, nl);
          rest = rest.slice(nl + 1);
          // Awaited: a slow consumer (the list file) holds the response back instead of buffering it.
          if (line) await onEntry(JSON.parse(line) as ManifestLine);
        }
      }
    });
  }

  /**
   * Bytes `start`..`end` (exclusive) of a remote file. `checked`: the server sent the range's SHA-256 and the bytes
   * are those (a range that arrived otherwise is a network failure, sent again); false from a server without range
   * digests, whose file is then compared whole at the end.
   */
  /** A range body of `read` back to the pool, once nothing reads it any more (written to the partial file). */
  giveRange(data: Buffer): void {
    const base = this.poolOf.get(data);
    if (base) this.rangePool.give(base);
  }

  read(path: string, start: number, end: number): Promise<{ data: Buffer; checked: boolean }> {
    return this.via(async (c) => {
      const res = await c.read(path, start, end);
      const body = rangeBodyOf(res) ?? (await bytesOf(res));
      if (res.status !== 206 && !(res.status === 200 && start === 0)) throw errorOf(body);
      if (body.length !== end - start) throw new NetworkError('short range');
      const theirs = sha256OfContentDigest(res.headers.get('content-digest'));
      if (theirs && sha256Of(body) !== theirs) throw new NetworkError('the range differs from its digest');
      return { data: body, checked: theirs !== null };
    });
  }
  readBatch(paths: string[]): Promise<Buffer> {
    return this.via(async (c) => {
      const res = await c.readBatch(paths);
      const body = await bytesOf(res);
      if (res.status !== 200 || String(res.headers.get('content-type')).includes('json')) throw errorOf(body);
      return body;
    });
  }
  sha256(path: string) {
    return this.via((c) => c.sha256(path));
  }

  // The remote file operations of the local protocol, through efile's ordinary calls.
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown) {
    return this.via((_, client) => client.request<T>(path, { method, json: body }));
  }
}

/** A connection cut while an answer's body was read: a failure of the server, like no answer at all. */
class CutOff extends Error {}
const cutOff = (e: unknown): never => {
  throw new CutOff(e instanceof Error ? e.message : String(e));
};
const bytesOf = (res: Response): Promise<Buffer> => res.arrayBuffer().then((b) => Buffer.from(b), cutOff);

/** The error of a 2xx answer that is not what the call expects: its envelope's refusal, else an unexpected answer. */
function errorOf(body: Buffer): Error {
  const env = parseEnvelope(body.toString('utf8'));
  if (!env) return new NetworkError('unexpected answer');
  // efile's own words, relayed as they came.
  const relayed = typeof env.msg === 'string' ? env.msg : '';
  return new RemoteError(env.code, relayed, env.data);
}
