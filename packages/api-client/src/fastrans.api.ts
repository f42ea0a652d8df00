import type {
  FastransLoginResponse,
  FastransServer,
  FastransWebBody,
  ManifestEntry,
  TransferBatchResponse,
  TransferFileRef,
  TransferStatusResponse,
} from '@hpc/contracts';
import { FastransWebRoutes, TransferRoutes, WANT_CONTENT_DIGEST } from '@hpc/contracts';
import type { ApiClient } from './client';
import type { DataOf } from './envelope';

export type TransferStatus = DataOf<typeof TransferStatusResponse>;
export type TransferBatchResult = DataOf<typeof TransferBatchResponse>;
/** A manifest line as the client reads it (`mtime` is not needed to plan a download). */
export type ManifestLine = Pick<ManifestEntry, 'rel' | 'dir' | 'size'>;
/** The bytes of a range or a tar as the caller's `fetch` takes them (a Buffer in Node). */
export type Bytes = NonNullable<RequestInit['body']>;
/** What the portal's fast-transfer web server answers a login: the day token and where it leads. */
export type FastransWebLogin = DataOf<typeof FastransLoginResponse> & { minVersion?: string };

/**
 * The fast-transfer calls of one efile instance (contracts' `TransferRoutes`, `/fastrans/*.action`); `client`
 * carries the day token in the `token` header. The JSON calls resolve with the envelope's data; the byte calls (a
 * range or tar batch sent, a range, a tar or the NDJSON manifest read) go through {@link ApiClient.send} and hand
 * back the raw Response for the caller to stream, refusals being thrown as {@link ApiError} alike.
 */
export function fastransApi(client: ApiClient) {
  const octets = { 'content-type': 'application/octet-stream' };
  return {
    begin: (files: TransferFileRef[], rangeSize: number, overwrite: boolean) =>
      client.request(TransferRoutes.begin, { body: { files, rangeSize, overwrite } }),
    status: (files: TransferFileRef[]) => client.request(TransferRoutes.status, { body: { files } }),
    /** `sha256`: the range's own SHA-256, which the server checks while it writes the bytes. */
    range: (id: string, n: number, data: Bytes, sha256?: string) =>
      client.request(TransferRoutes.range, { query: { id, n, sha256 }, body: data }, { headers: octets }),
    /** `rangesSha256`: the hash list of the range digests (servers that check ranges); `sha256`: the whole file's. */
    finalize: (id: string, digest: { sha256: string } | { rangesSha256: string }) =>
      client.request(TransferRoutes.finalize, { body: { id, ...digest } }),
    /** A tar of small files under the folder `path`, each checked against its `hpc.sha256` pax header. */
    batch: (path: string, tar: Bytes, overwrite: boolean) =>
      client.request(TransferRoutes.batch, { query: { path, overwrite }, body: tar }, { headers: octets }),
    /** Which of these small files under `path` are there already with these bytes (sent or fetched again). */
    same: (path: string, files: { name: string; size: number; sha256: string }[]) =>
      client.request(TransferRoutes.same, { body: { path, files } }),
    cancel: (ids: string[]) => client.request(TransferRoutes.cancel, { body: { ids } }),
    /** NDJSON, one {@link ManifestEntry} a line, when the content type says so; otherwise an envelope. */
    manifest: (paths: string[]) => client.send(TransferRoutes.manifest, { body: { paths } }),
    /**
     * Bytes `start` to `end` (exclusive) of one file: 206, or 200 with the whole file for a range from 0. A server
     * that can answers with the range's `Content-Digest` (contracts' `WANT_CONTENT_DIGEST`).
     */
    read: (path: string, start: number, end: number) =>
      client.send(
        TransferRoutes.read,
        { query: { path } },
        { headers: { range: `bytes=${start}-${end - 1}`, 'want-content-digest': WANT_CONTENT_DIGEST } },
      ),
    /** A tar of these small files with their `hpc.sha256` pax headers. */
    readBatch: (paths: string[]) => client.send(TransferRoutes.readBatch, { body: { paths } }),
    sha256: (path: string) => client.request(TransferRoutes.sha256, { body: { path } }),
  };
}
export type FastransCalls = ReturnType<typeof fastransApi>;

/** The relay's long poll: the page's requests carried for the client since `after` (docs/FASTRANS.md "The relay"). */
export interface RelayBatch<M> {
  seq: number;
  requests: { n: number; m: M }[];
}

/** Which client calls: its own id (kept in its config folder) and its machine's name (docs/FASTRANS.md "The relay"). */
export type FastransClientWho = Required<Pick<FastransWebBody, 'client' | 'label'>>;

/**
 * The portal's calls for the fast-transfer client itself (contracts' `FastransWebRoutes`): its web server
 * (`POST /fastrans/api`, a JSON-RPC-like body, always HTTP 200 with a result code) and the relay. The web token
 * travels as `?token=`; `who` goes with every call, so the portal tells one user's clients on several machines apart
 * (without it, the portal counts the caller as the one client of older versions). The web server's `data` depends
 * on the module and action called, which its one route cannot say: each call names its own.
 */
export function fastransWebApi(client: ApiClient, version: string, who?: FastransClientWho) {
  let id = 0;
  const call = async <T>(
    body: Pick<FastransWebBody, 'module' | 'action' | 'UK'>,
    token?: string,
    timeoutMs?: number,
  ) =>
    (await client.request(
      FastransWebRoutes.api,
      { query: { token }, body: { id: ++id, version, ...who, ...body } },
      { timeoutMs },
    )) as T;
  return {
    login: (uk: string) => call<FastransWebLogin>({ module: 'user', action: 'login', UK: uk }),
    servers: (token: string) =>
      call<{ servers: FastransServer[] }>({ module: 'server', action: 'list' }, token),
    heartbeat: (token: string) => call<null>({ module: 'client', action: 'heartbeat' }, token),
    /** The client is stopping (not logging out): the portal forgets it at once instead of after its 90 s. */
    stopping: (token: string, timeoutMs: number) =>
      call<null>({ module: 'client', action: 'stop' }, token, timeoutMs),
    logout: (token: string) => call<null>({ module: 'user', action: 'logout' }, token),
    relayPoll: async <M>(token: string, after: number, timeoutMs: number) =>
      (await client.request(
        FastransWebRoutes.relayPoll,
        { query: { token }, body: { after, version, ...who } },
        { timeoutMs },
      )) as RelayBatch<M>,
    relayAnswer: (
      token: string,
      n: number,
      answer: { code: string; msg: string; zh?: string; data: unknown },
      timeoutMs: number,
    ) =>
      client.request(
        FastransWebRoutes.relayAnswer,
        { query: { token }, body: { n, answer, client: who?.client } },
        { timeoutMs },
      ) as Promise<null>,
  };
}
export type FastransWebCalls = ReturnType<typeof fastransWebApi>;
