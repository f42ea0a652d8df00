import net from 'node:net';

/**
 * A range download's GET over a plain-HTTP keep-alive socket whose reads land straight in the range's buffer
 * (`net.connect`'s `onread` with a buffer of our choosing): no `data` event, no 64 KiB piece allocated and
 * collected per read, no parser callback per piece. A 16 MiB range arrives in a few hundred reads of up to the
 * socket's whole backlog each, instead of thousands of pieces copied out of Node's buffers; in a side-by-side run
 * this halved the CPU of receiving a GiB and the wall time of the same loop (docs/PERFORMANCE.md, issue 24 §1).
 *
 * Only the answer the fast path is for is read here: a 206 with a `Content-Length` of at most `maxBody`. Any other
 * answer (an envelope with a refusal, a chunked body, a 200) gives `null` and the connection is dropped; the caller
 * then asks again the ordinary way, which reads every kind of answer (a GET of a range is safe to repeat). TLS
 * stays on the ordinary path too: `onread` reads the raw socket, not the decrypted stream.
 */
export interface RawRangeAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
}

export interface RawRangeRequest {
  url: URL;
  headers: Record<string, string>;
  /** A buffer of at least `length` bytes for the body (a pool's). */
  bodyOf: (length: number) => Buffer;
  idleMs: number;
  signal?: AbortSignal | null;
  maxBody: number;
}

/** What an answer's head may take at most (efile's are well under 1 KiB). */
const HEAD_MAX = 64 * 1024;
/** An idle connection is closed before a server's keep-alive limit (Node's 5 s) could close it under a request. */
const IDLE_CLOSE_MS = 4_000;
const HEAD_END = Buffer.from('\r\n\r\n');

/** One request at a time on one socket; `job` is the answer being read, null while idle. */
class Conn {
  readonly socket: net.Socket;
  private readonly scratch = Buffer.allocUnsafe(HEAD_MAX);
  job: Job | null = null;
  /** Set by the first request: a fresh socket's failure is the server's; a reused one's may be a stale socket. */
  used = false;
  idleTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly key: string,
    host: string,
    port: number,
  ) {
    this.socket = net.connect({
      host,
      port,
      noDelay: true,
      onread: {
        // Asked again after every read: the head goes to the scratch buffer, the body to its own place.
        buffer: () => this.job?.target() ?? this.scratch,
        callback: (n: number) => {
          if (!this.job) {
            // Bytes nobody asked for: the connection is out of step, never to be used again.
            this.socket.destroy();
            return false;
          }
          try {
            this.job.received(n);
          } catch (e) {
            // Thrown inside libuv's read callback it would end the process: the range fails instead.
            this.job?.fail(e instanceof Error ? e : new Error(String(e)));
          }
          return true;
        },
      },
    });
    this.socket.on('error', (e) => this.job?.fail(e));
    this.socket.on('timeout', () => this.job?.fail(new Error('timeout')));
    this.socket.on('close', () => {
      pools.get(this.key)?.delete(this);
      this.job?.fail(new Error('the connection closed before the answer ended'));
    });
  }

  head(): Buffer {
    return this.scratch;
  }
}

/** The idle connections of each server (`host:port`), taken by the next range. */
const pools = new Map<string, Set<Conn>>();

function take(url: URL, fresh: boolean): Conn {
  const port = Number(url.port || 80);
  const key = `${url.hostname}:${port}`;
  const idle = pools.get(key);
  for (const c of fresh ? [] : (idle ?? [])) {
    idle!.delete(c);
    if (c.idleTimer) clearTimeout(c.idleTimer);
    if (!c.socket.destroyed) return c;
  }
  return new Conn(key, url.hostname.replace(/^\[|\]$/g, ''), port);
}

function giveBack(c: Conn) {
  if (c.socket.destroyed) return;
  c.socket.setTimeout(0);
  let idle = pools.get(c.key);
  if (!idle) pools.set(c.key, (idle = new Set()));
  idle.add(c);
  c.idleTimer = setTimeout(() => c.socket.destroy(), IDLE_CLOSE_MS);
  c.idleTimer.unref();
  // An idle socket must not keep the process alive (a CLI run ends when its transfers do).
  c.socket.unref();
}

/** The reading of one answer, fed by the connection's reads. */
class Job {
  private headLen = 0;
  private body: Buffer | null = null;
  private at = 0;
  private status = 0;
  private statusText = '';
  private headers = new Headers();
  private keepAlive = true;
  /** Any byte of the answer arrived (a reused socket that fails before is retried once on a fresh one). */
  started = false;

  constructor(
    private readonly conn: Conn,
    private readonly req: RawRangeRequest,
    private readonly done: (e: Error | null, a?: RawRangeAnswer | null) => void,
  ) {}

  target(): Buffer {
    return this.body ? this.body.subarray(this.at) : this.conn.head().subarray(this.headLen);
  }

  received(n: number) {
    this.started = true;
    if (this.body) {
      this.at += n;
      return this.at === this.body.length ? this.finish() : undefined;
    }
    this.headLen += n;
    const head = this.conn.head();
    const end = head.subarray(0, this.headLen).indexOf(HEAD_END);
    if (end === -1) {
      if (this.headLen === head.length) this.fail(new Error('an answer head over 64 KiB'));
      return;
    }
    const lines = head.toString('latin1', 0, end).split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(lines[0] ?? '');
    if (!m) return this.fail(new Error('not an HTTP answer'));
    this.status = Number(m[1]);
    this.statusText = m[2] ?? '';
    try {
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) this.headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
    } catch {
      return this.fail(new Error('a malformed answer header'));
    }
    this.keepAlive = !/\bclose\b/i.test(this.headers.get('connection') ?? '');
    const length = Number(this.headers.get('content-length') ?? NaN);
    if (
      this.status !== 206 ||
      this.headers.has('transfer-encoding') ||
      !Number.isSafeInteger(length) ||
      length < 0 ||
      length > this.req.maxBody
    ) {
      // Not the fast path's answer: the caller asks again the ordinary way; this socket's rest is unread.
      this.conn.socket.destroy();
      return this.settle(null, null);
    }
    const given = this.req.bodyOf(length);
    this.body = given.length === length ? given : given.subarray(0, length);
    const early = this.headLen - (end + HEAD_END.length);
    if (early > length) return this.fail(new Error('an answer longer than its length'));
    this.at = head.copy(this.body, 0, end + HEAD_END.length, this.headLen);
    if (this.at === length) this.finish();
  }

  private finish() {
    const answer = {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
      body: this.body!,
    };
    this.conn.job = null;
    if (this.keepAlive) giveBack(this.conn);
    else this.conn.socket.destroy();
    this.settle(null, answer);
  }

  fail(e: Error) {
    this.conn.socket.destroy();
    this.settle(e);
  }

  private settled = false;
  private settle(e: Error | null, a?: RawRangeAnswer | null) {
    if (this.settled) return;
    this.settled = true;
    this.conn.job = null;
    this.done(e, a);
  }
}

/** Characters that would end a header line early: a value carrying them is never written to the socket. */
const LINE_BREAK = /[\r\n\0]/;

function requestHead(req: RawRangeRequest): string {
  const lines = [`GET ${req.url.pathname}${req.url.search} HTTP/1.1`, `host: ${req.url.host}`];
  for (const [k, v] of Object.entries(req.headers)) {
    const name = k.toLowerCase();
    if (name === 'host' || name === 'connection' || name === 'content-length') continue;
    if (LINE_BREAK.test(k) || LINE_BREAK.test(v)) throw new TypeError(`a line break in the header ${k}`);
    lines.push(`${name}: ${v}`);
  }
  lines.push('connection: keep-alive', '', '');
  return lines.join('\r\n');
}

function once(
  req: RawRangeRequest,
  head: string,
  fresh: boolean,
): Promise<{ answer: RawRangeAnswer | null; retry: boolean }> {
  return new Promise((resolve, reject) => {
    const conn = take(req.url, fresh);
    const reused = conn.used;
    conn.used = true;
    conn.socket.ref();
    const onAbort = () => conn.job?.fail(new Error('aborted'));
    const job = new Job(conn, req, (e, answer) => {
      req.signal?.removeEventListener('abort', onAbort);
      conn.socket.setTimeout(0);
      if (!e) return resolve({ answer: answer ?? null, retry: false });
      // A kept-alive socket the server had closed fails before the first byte: once more on a fresh socket.
      if (reused && !job.started && !req.signal?.aborted) return resolve({ answer: null, retry: true });
      reject(e);
    });
    conn.job = job;
    if (req.signal?.aborted) return job.fail(new Error('aborted'));
    req.signal?.addEventListener('abort', onAbort, { once: true });
    conn.socket.setTimeout(req.idleMs);
    conn.socket.write(head);
  });
}

/**
 * The answer of a range GET read the fast way, or null when the answer is not a 206 with its length (the caller
 * then asks the ordinary way). Rejects as `fetch` does when there is no answer (refused, cut off, idle too long).
 */
export async function rawRangeGet(req: RawRangeRequest): Promise<RawRangeAnswer | null> {
  const head = requestHead(req);
  const first = await once(req, head, false);
  if (!first.retry) return first.answer;
  return (await once(req, head, true)).answer;
}
