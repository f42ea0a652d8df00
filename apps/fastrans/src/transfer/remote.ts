import { CommonCodes, PortalCodes, type TransferFileRef, type TransferFileStatus } from '@hpc/contracts';
import { NetworkError, request, type HttpResult } from './http';

/** An answer of efile with a code other than "0". `auth` for refused tokens (the task waits for a new login). */
export class RemoteError extends Error {
  constructor(
    readonly code: string,
    msg: string,
    readonly data: unknown = null,
  ) {
    super(msg);
  }
  get auth() {
    return this.code === CommonCodes.tokenWithoutUser || this.code === PortalCodes.unauthorized;
  }
}

export interface Envelope<T> {
  code: string;
  msg: string;
  data: T;
}

/**
 * The cluster's efile instances as the client reaches them: requests go round-robin over the servers the portal
 * listed, and a server that fails is skipped for a while (failover). The token is the day token of the login; it is
 * sent in the `token` header and never logged.
 */
export class Remote {
  private next = 0;
  private readonly downUntil = new Map<string, number>();
  /** Consecutive network failures over all servers: the runner reports "proxy closed" past a threshold. */
  failures = 0;

  constructor(
    readonly servers: string[],
    private readonly token: string,
  ) {
    if (servers.length === 0) throw new Error('no server');
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

  private async send(path: string, opts: Parameters<typeof request>[1]): Promise<HttpResult> {
    const server = this.pick();
    try {
      const r = await request(server + path, { ...opts, headers: { ...opts.headers, token: this.token } });
      this.failures = 0;
      if (r.status >= 500 && r.status !== 507) {
        this.downUntil.set(server, Date.now() + 5_000);
        throw new NetworkError(`HTTP ${r.status}`);
      }
      return r;
    } catch (e) {
      if (e instanceof NetworkError) {
        this.failures++;
        this.downUntil.set(server, Date.now() + 5_000);
      }
      throw e;
    }
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.send(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return this.envelope<T>(r);
  }

  private envelope<T>(r: HttpResult): T {
    let env: Envelope<T>;
    try {
      env = JSON.parse(r.body.toString('utf8')) as Envelope<T>;
    } catch {
      throw new NetworkError(`unexpected answer (HTTP ${r.status})`);
    }
    if (env.code !== '0') throw new RemoteError(env.code, env.msg, env.data);
    return env.data;
  }

  async begin(files: TransferFileRef[], rangeSize: number, overwrite: boolean) {
    return (
      await this.json<{ files: TransferFileStatus[] }>('POST', '/fastrans/begin.action', {
        files,
        rangeSize,
        overwrite,
      })
    ).files;
  }
  async status(files: TransferFileRef[]) {
    return (await this.json<{ files: TransferFileStatus[] }>('POST', '/fastrans/status.action', { files }))
      .files;
  }
  /** `sha256`: the range's own SHA-256, checked by the server while it writes the bytes. */
  async range(id: string, n: number, data: Buffer, sha256?: string) {
    const r = await this.send(`/fastrans/range.action?id=${id}&n=${n}${sha256 ? `&sha256=${sha256}` : ''}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: data,
    });
    return this.envelope<{ stored: number; total: number }>(r);
  }
  /** `rangesSha256`: the hash list of the range digests (servers that check ranges); `sha256`: the whole file's. */
  finalize(id: string, digest: { sha256: string } | { rangesSha256: string }) {
    return this.json<{ path: string; size: number }>('POST', '/fastrans/finalize.action', { id, ...digest });
  }
  async batch(base: string, tar: Buffer, overwrite: boolean) {
    const r = await this.send(
      `/fastrans/batch.action?path=${encodeURIComponent(base)}&overwrite=${overwrite}`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: tar,
      },
    );
    return this.envelope<{ stored: string[]; failed: { path: string; code: string }[] }>(r);
  }
  cancel(ids: string[]) {
    return this.json<{ cancelled: number }>('POST', '/fastrans/cancel.action', { ids });
  }

  /** The manifest of remote items, line by line (a folder of any size: nothing is held but one line). */
  async manifest(
    paths: string[],
    onEntry: (e: { rel: string; dir: boolean; size: number }) => void | Promise<void>,
  ) {
    const outcome: { failed: Error | null } = { failed: null };
    const r = await this.send('/fastrans/manifest.action', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paths }),
      onResponse: async (res) => {
        if (!String(res.headers['content-type']).includes('ndjson')) {
          const parts: Buffer[] = [];
          for await (const c of res) parts.push(c as Buffer);
          outcome.failed = this.errorOf(Buffer.concat(parts));
          return;
        }
        let rest = '';
        for await (const c of res) {
          rest += (c as Buffer).toString('utf8');
          let nl: number;
          while ((nl = rest.indexOf('\n')) !== -1) {
            const line = rest.slice(0, nl);
            rest = rest.slice(nl + 1);
            // Awaited: a slow consumer (the list file) holds the response back instead of buffering it.
            if (line) await onEntry(JSON.parse(line) as { rel: string; dir: boolean; size: number });
          }
        }
      },
    });
    if (outcome.failed) throw outcome.failed;
    if (r.status >= 300) this.envelope(r);
  }

  private errorOf(body: Buffer): Error {
    try {
      const env = JSON.parse(body.toString('utf8')) as Envelope<unknown>;
      return new RemoteError(env.code, env.msg, env.data);
    } catch {
      return new NetworkError('unexpected answer');
    }
  }

  async read(path: string, start: number, end: number): Promise<Buffer> {
    const r = await this.send(`/fastrans/read.action?path=${encodeURIComponent(path)}`, {
      method: 'GET',
      headers: { range: `bytes=${start}-${end - 1}` },
    });
    if (r.status !== 206 && !(r.status === 200 && start === 0)) throw this.errorOf(r.body);
    if (r.body.length !== end - start) throw new NetworkError('short range');
    return r.body;
  }
  async readBatch(paths: string[]): Promise<Buffer> {
    const r = await this.send('/fastrans/readBatch.action', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paths }),
    });
    if (r.status !== 200 || String(r.headers['content-type']).includes('json')) throw this.errorOf(r.body);
    return r.body;
  }
  sha256(path: string) {
    return this.json<{ sha256: string; size: number }>('POST', '/fastrans/sha256.action', { path });
  }

  // The remote file operations of the local protocol, through efile's ordinary calls.
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown) {
    return this.json<T>(method, path, body);
  }
}
