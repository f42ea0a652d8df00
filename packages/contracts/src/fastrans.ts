import { Type, type Static, type TSchema } from 'typebox';
import { Envelope } from './envelope';
import { Limits } from './limits';
import { CommonCodes } from './error-names';

/**
 * Fast transfer (issue 11, spec §3/§4/§7/§9): the task states the client reports, the calls efile answers for it
 * (`/fastrans/*.action` on every efile instance), and the portal's fast-transfer calls. The local WebSocket
 * protocol between page and client is documented in docs/FASTRANS.md.
 */

const Obj = <T extends Record<string, TSchema>>(p: T) => Type.Object(p);
const ClusterPath = Type.String({ minLength: 1, maxLength: 4096 });
const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** spec §4: the fast-transfer task states 0-13, in this order. */
export const FastransTaskState = {
  unknown: 0,
  todo: 1,
  connectingProxy: 2,
  waitNextCommand: 3,
  waitLoginInfo: 4,
  ready: 5,
  recover: 6,
  started: 7,
  stopping: 8,
  stopped: 9,
  successful: 10,
  failed: 11,
  authFailed: 12,
  proxyClosed: 13,
} as const;
export type FastransTaskState = (typeof FastransTaskState)[keyof typeof FastransTaskState];

/** spec §7/§9: local protocol version 1; the client scans these ports in order. */
export const FASTRANS_PROTOCOL_VERSION = 1;
export const FASTRANS_PORTS = Limits.fastTransferPorts;
/** The oldest client version the portal accepts; older ones get the update prompt (spec §2 (b)). */
export const FASTRANS_MIN_CLIENT_VERSION = '1.0.0';
/** The `use` claim of the fast-transfer day token: a cluster token limited to the home, valid for the day. */
export const FASTRANS_TOKEN_USE = 'fastrans';
/** Client result codes (spec §8): web server 1000-1049, transfer 2000-2016, proxy/client 30000-30005. */
export const FastransCodes = {
  ok: '0',
  /** The web server answered something other than its envelope (an HTTP error of a proxy). */
  webServerHttp: '1000',
  webServerLogin: CommonCodes.unavailable,
  versionTooOld: CommonCodes.remoteCall,
  badRequest: '2001',
  notLoggedIn: '30003',
  transferFailed: '2002',
  notFound: '2004',
  refused: '2016',
  clientClosed: '30001',
  timeout: '30002',
} as const;
/**
 * The `data.reason` of fast transfer's refusals, so the web shows its own warning: the "1030" of spec §5 (outside
 * the home, no write permission), and the relay's "1004" when several of the user's clients poll and the page named
 * none (docs/FASTRANS.md "The relay").
 */
export const FastransRefusal = {
  outsideHome: 'fastransOutsideHome',
  noWrite: 'fastransNoWrite',
  chooseClient: 'fastransChooseClient',
  /** The local client is paired with another portal user (issue 24 §3.1). */
  otherOwner: 'fastransOtherOwner',
} as const;

/** Compares dotted versions numerically ("1.10.0" > "1.9.3"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

// ---- efile: uploads ------------------------------------------------------------------------------------------------
/**
 * One file of an upload, named by its final cluster path. `identifier` is the client's name for this version of the
 * local file (size, mtime, path): the same identifier resumes the same partial file.
 */
export const TransferFileRef = Obj({
  path: ClusterPath,
  size: Type.Integer({ minimum: 0 }),
  identifier: Type.String({ minLength: 1, maxLength: 512 }),
});
export type TransferFileRef = Static<typeof TransferFileRef>;

/** `POST /fastrans/begin.action`: opens (or finds) the preallocated hidden partial file of each large file. */
export const TransferBeginBody = Obj({
  files: Type.Array(TransferFileRef, { minItems: 1, maxItems: 10_000 }),
  rangeSize: Type.Integer({ minimum: 64 * 1024, maximum: 1024 * 1024 * 1024 }),
  overwrite: Type.Optional(Type.Boolean()),
});
export type TransferBeginBody = Static<typeof TransferBeginBody>;

/** Per file: 'done' (the final file is there and verified), or the range numbers already stored. */
export const TransferFileStatus = Obj({
  path: Type.String(),
  id: Type.String(),
  done: Type.Boolean(),
  ranges: Type.Array(Type.Integer()),
  rangeSize: Type.Integer(),
  /** Set when this file cannot be uploaded (spec §8 code: "1021" name taken, "1030" refused, ...). */
  code: Type.Optional(Type.String()),
  msg: Type.Optional(Type.String()),
  /** `FastransRefusal` of a "1030": outside the home, or no write permission (spec §5's two warnings). */
  reason: Type.Optional(Type.String()),
  /**
   * With a "1021": the size of the regular file already under the name. A client sending the same file again (a
   * re-run after an interruption) compares it and `sha256.action` with its own file, and counts an identical one as
   * done instead of failing it.
   */
  existingSize: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * True from servers that check each range's SHA-256 as they write it and take `rangesSha256` at finalize (no
   * second read of the file). Absent from older servers: the client then sends the whole file's `sha256`.
   */
  rangeChecks: Type.Optional(Type.Boolean()),
});
export type TransferFileStatus = Static<typeof TransferFileStatus>;
export const TransferStatusResponse = Envelope(Obj({ files: Type.Array(TransferFileStatus) }));

/** `POST /fastrans/status.action`: the one call a restarted client makes to learn what the server has. */
export const TransferStatusBody = Obj({
  files: Type.Array(TransferFileRef, { minItems: 1, maxItems: 100_000 }),
});

/**
 * `PUT /fastrans/range.action?id=&n=&sha256=` body = the bytes of range n. `sha256` (the range's own SHA-256) is
 * checked while the bytes are written; a range whose bytes differ is refused ("1010", retryable) and not recorded.
 * Without it (clients before 1.1.0) the server records the digest it computed.
 */
export const TransferRangeQuery = Obj({
  id: Type.String({ pattern: '^[0-9a-f]{40}$' }),
  n: Type.Integer({ minimum: 0 }),
  sha256: Type.Optional(Sha256),
});
export const TransferRangeResponse = Envelope(Obj({ stored: Type.Integer(), total: Type.Integer() }));

/**
 * `POST /fastrans/finalize.action`: checks the file against the client's digest, then gives it its final name.
 * `rangesSha256` = SHA-256 over the concatenated 32-byte SHA-256s of ranges 0…n-1 (a hash list): checked against
 * the digests the server computed while writing each range, so the file is not read again. `sha256` (the whole
 * file's, clients before 1.1.0) makes the server read the partial file once more. One of the two is required.
 */
export const TransferFinalizeBody = Obj({
  id: Type.String({ pattern: '^[0-9a-f]{40}$' }),
  sha256: Type.Optional(Sha256),
  rangesSha256: Type.Optional(Sha256),
});
export type TransferFinalizeBody = Static<typeof TransferFinalizeBody>;
export const TransferFinalizeResponse = Envelope(Obj({ path: Type.String(), size: Type.Integer() }));

/**
 * `PUT /fastrans/batch.action?path=<folder>&overwrite=` body = a tar stream of small files under that folder; each
 * file's SHA-256 travels in its pax header `hpc.sha256`. Every file is written to a hidden temp name, checked, and
 * renamed into place; a file whose hash differs is reported, never kept.
 */
export const TransferBatchQuery = Obj({ path: ClusterPath, overwrite: Type.Optional(Type.Boolean()) });
export const TransferBatchResponse = Envelope(
  Obj({
    stored: Type.Array(Type.String()),
    failed: Type.Array(Obj({ path: Type.String(), code: Type.String() })),
  }),
);

/**
 * `POST /fastrans/same.action`: which of these small files (relative to the folder `path`, as a batch names them)
 * are already there with exactly these bytes: a regular file of that size and SHA-256, read and hashed by the
 * server. A client sending a folder again leaves those out of its batches instead of sending every byte to be
 * compared (rsync, run again, sends nothing); one fetching a folder again names the digests of its own files and
 * fetches only the others. Anything the server cannot read as such (missing, another size, a link, a FIFO) is
 * simply not listed; a folder outside the home is refused as every fast-transfer call is.
 */
export const TransferSameBody = Obj({
  path: ClusterPath,
  files: Type.Array(
    Obj({
      name: Type.String({ minLength: 1, maxLength: 4096 }),
      size: Type.Integer({ minimum: 0, maximum: 1024 * 1024 }),
      sha256: Sha256,
    }),
    { minItems: 1, maxItems: 1_000 },
  ),
});
export type TransferSameBody = Static<typeof TransferSameBody>;
export const TransferSameResponse = Envelope(Obj({ same: Type.Array(Type.String()) }));

/** `POST /fastrans/cancel.action`: removes unfinished uploads of these ids with their partial files. */
export const TransferCancelBody = Obj({
  ids: Type.Array(Type.String({ pattern: '^[0-9a-f]{40}$' }), { maxItems: 10_000 }),
});
// Type.* directly (not Obj or Envelope): the web build drops only calls it knows to be pure.
export const TransferCancelResponse = Type.Object({
  code: Type.String(),
  msg: Type.String(),
  data: Type.Object({ cancelled: Type.Integer() }),
});

// ---- efile: downloads ----------------------------------------------------------------------------------------------
/** `POST /fastrans/manifest.action`: every file under the chosen paths (streamed NDJSON, any size). */
export const TransferManifestBody = Obj({
  paths: Type.Array(ClusterPath, { minItems: 1, maxItems: 10_000 }),
});
/** One line of the manifest: a folder (`dir`) or a file with its size and mtime, `rel` relative to the chosen path's parent. */
export const ManifestEntry = Obj({
  rel: Type.String(),
  dir: Type.Boolean(),
  size: Type.Integer(),
  mtime: Type.Number(),
});
export type ManifestEntry = Static<typeof ManifestEntry>;
/**
 * A range's digest on the way down (RFC 9530): the client asks with `Want-Content-Digest: sha-256`, efile reads the
 * range, hashes it and answers `Content-Digest: sha-256=:<base64>:` with the bytes. The client checks each range as
 * it arrives, so a download needs no whole-file digest after its last byte (issue 24 §1: that serial tail re-read
 * and hashed the whole file on both sides). A server without it answers no header; the client then compares the
 * whole file's SHA-256 as before.
 */
export const WANT_CONTENT_DIGEST = 'sha-256';
/** The header value for a SHA-256 (hex) of the bytes sent. */
export const contentDigest = (sha256Hex: string) =>
  `sha-256=:${btoa(String.fromCharCode(...(sha256Hex.match(/../g) ?? []).map((h) => parseInt(h, 16))))}:`;
/** The SHA-256 (hex) of a `Content-Digest` header, or null when it has none. */
export function sha256OfContentDigest(header: string | null | undefined): string | null {
  const m = /(?:^|,)\s*sha-256=:([A-Za-z0-9+/]+={0,2}):/.exec(header ?? '');
  if (!m) return null;
  let bytes: string;
  try {
    bytes = atob(m[1]!);
  } catch {
    return null;
  }
  const hex = [...bytes].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
  return hex.length === 64 ? hex : null;
}
/** The largest range efile reads whole to hash it (the client's ranges are 16 MiB). */
export const DIGEST_RANGE_MAX = 64 * 1024 * 1024;

/** `GET /fastrans/read.action?path=` with `Range`: the bytes of one file (206). */
export const TransferReadQuery = Obj({ path: ClusterPath });
/** `POST /fastrans/readBatch.action`: a tar stream of these small files, each with its `hpc.sha256` pax header. */
export const TransferReadBatchBody = Obj({
  paths: Type.Array(ClusterPath, { minItems: 1, maxItems: 5_000 }),
});
/** `POST /fastrans/sha256.action`: the SHA-256 of one file (download verification). */
export const TransferShaBody = Obj({ path: ClusterPath });
export const TransferShaResponse = Envelope(Obj({ sha256: Type.String(), size: Type.Integer() }));

// ---- portal ----------------------------------------------------------------------------------------------------------
/** `POST /model-zoo/proxy/efile/fastrans/login` (form): `directory` URL-encoded, `clusterId` optional. */
export const FastransLoginBody = Obj({
  directory: Type.String({ minLength: 1, maxLength: 8192 }),
  clusterId: Type.Optional(Type.String({ maxLength: 64 })),
});
export const FastransLoginResponse = Envelope(
  Obj({
    token: Type.String(),
    clusterUserName: Type.String(),
    clusterId: Type.String(),
    homePath: Type.String(),
    expiresAt: Type.Number(),
  }),
);
/** `POST /model-zoo/proxy/efile/fastrans/checkPermission`: `allowded` (the spec's spelling). */
export const FastransPermissionBody = Obj({
  path: ClusterPath,
  permissionAction: Type.Literal('write'),
  clusterId: Type.Optional(Type.String({ maxLength: 64 })),
});
export const FastransPermissionResponse = Envelope(Obj({ allowded: Type.Boolean() }));

/**
 * The page asks whether a local client's answer to `check` proves it holds the session user's client key (the one
 * the package downloaded by that user carries): `proof` is base64url(HMAC-SHA256(key, sign)).
 */
export const FastransVerifyClientBody = Obj({
  sign: Type.String({ minLength: 1, maxLength: 256 }),
  proof: Type.String({ maxLength: 128 }),
});
export const FastransVerifyClientResponse = Envelope(Obj({ ok: Type.Boolean() }));
/** How many fast-transfer day tokens the revocation of the client key revoked with it. */
export const FastransRevokeClientKeyResponse = Envelope(Obj({ revokedTokens: Type.Integer({ minimum: 0 }) }));

/**
 * A client's own id (random, made once and kept in its config folder) and its machine's name: one user may run
 * clients on several machines, and the relay must reach the one the page means (docs/FASTRANS.md "The relay").
 */
export const FastransClientId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });
export const FastransClientLabel = Type.String({ maxLength: 64 });

/** The fast-transfer web server (`POST /fastrans/api`, `?token=` for servers): the client's own calls. */
export const FastransWebBody = Obj({
  id: Type.Union([Type.Integer(), Type.String({ maxLength: 64 })]),
  version: Type.String({ maxLength: 32 }),
  module: Type.String({ maxLength: 32 }),
  action: Type.String({ maxLength: 32 }),
  UK: Type.Optional(Type.String({ maxLength: 4096 })),
  /** Absent from clients before the relay chose among clients: they count as one client of a fixed id. */
  client: Type.Optional(FastransClientId),
  label: Type.Optional(FastransClientLabel),
});
export type FastransWebBody = Static<typeof FastransWebBody>;
export const FastransServer = Obj({ url: Type.String(), clusterId: Type.String() });
export type FastransServer = Static<typeof FastransServer>;
export const FastransWebResponse = Obj({
  id: Type.Union([Type.Integer(), Type.String()]),
  code: Type.String(),
  msg: Type.String(),
  data: Type.Unknown(),
});

/** The web token of the client's calls to the portal (`?token=`; the spec's servers call carries it so). */
export const FastransWebQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
/** An answer of the client's own (`{code, msg, data}`, any data): what the relay carries back to the page. */
export const FastransClientAnswer = Type.Object({
  code: Type.String(),
  msg: Type.String(),
  /** The Chinese of the client's own refusal (its `FastransText`); the relay answers the page in its language. */
  zh: Type.Optional(Type.String()),
  data: Type.Unknown(),
});

/**
 * `POST /model-zoo/proxy/efile/fastrans/relay`: one local action for the user's client (contracts'
 * `FastransLocalActions`, the client checks its fields), and for the relay itself: which client (`client`, required
 * when several poll) and how long to wait for its answer (`wait`, ms; the page's detection asks briefly). Those two
 * are the relay's, not the action's: they do not travel on.
 */
export const FastransRelayBody = Type.Object(
  {
    action: Type.String({ minLength: 1, maxLength: 32 }),
    client: Type.Optional(FastransClientId),
    wait: Type.Optional(Type.Integer({ minimum: 500, maximum: 25_000 })),
  },
  { additionalProperties: true },
);

/** `POST /fastrans/relay/answer`: the client's answer to the page's request `n`. */
export const FastransRelayAnswerBody = Type.Object({
  n: Type.Integer({ minimum: 1 }),
  client: Type.Optional(FastransClientId),
  answer: FastransClientAnswer,
});

/** `POST /fastrans/relay/poll`: the client's long poll for the page's requests after `after`, with who it is. */
export const FastransRelayPollBody = Obj({
  after: Type.Integer({ minimum: 0 }),
  version: Type.String({ maxLength: 32 }),
  client: Type.Optional(FastransClientId),
  label: Type.Optional(FastransClientLabel),
});

/**
 * `GET /model-zoo/proxy/efile/fastrans/presence`: the user's clients that called the portal lately (heartbeat or
 * relay poll), the most recently seen first; `relay`: it polls the relay now. `running` and `version` (of the most
 * recent) are what pages before the list read.
 */
export const FastransPresence = Obj({
  running: Type.Boolean(),
  version: Type.Union([Type.String(), Type.Null()]),
  clients: Type.Array(
    Obj({
      id: Type.String(),
      label: Type.String(),
      version: Type.String(),
      relay: Type.Boolean(),
      at: Type.Number(),
    }),
  ),
});
export type FastransPresence = Static<typeof FastransPresence>;
export type FastransPresentClient = FastransPresence['clients'][number];
export const FastransPresenceResponse = Envelope(FastransPresence);
