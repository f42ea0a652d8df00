import {
  FastransClientAnswer,
  FastransLoginBody,
  FastransLoginResponse,
  FastransPermissionBody,
  FastransPermissionResponse,
  FastransPresenceResponse,
  FastransVerifyClientBody,
  FastransVerifyClientResponse,
  FastransRevokeClientKeyResponse,
  FastransRelayAnswerBody,
  FastransRelayBody,
  FastransRelayPollBody,
  FastransWebBody,
  FastransWebQuery,
  FastransWebResponse,
  TransferBatchQuery,
  TransferBatchResponse,
  TransferBeginBody,
  TransferCancelBody,
  TransferCancelResponse,
  TransferFinalizeBody,
  TransferFinalizeResponse,
  TransferManifestBody,
  TransferRangeQuery,
  TransferRangeResponse,
  TransferReadBatchBody,
  TransferReadQuery,
  TransferSameBody,
  TransferSameResponse,
  TransferShaBody,
  TransferShaResponse,
  TransferStatusBody,
  TransferStatusResponse,
} from './fastrans';
import { defineRoute } from './route';

/**
 * Fast transfer's calls (`route.ts`; docs/FASTRANS.md): efile's transfer calls, the page's calls to the portal, and
 * the client's own calls to the portal (its web server and the relay).
 */

/**
 * efile's `/fastrans/*.action` (the day token in the `token` header), below the instance's mount point. JSON
 * bodies; ranges and tar batches travel as bytes, and the manifest, ranges and tar batches answer bytes.
 */
export const TransferRoutes = {
  begin: defineRoute({
    method: 'POST',
    path: '/fastrans/begin.action',
    body: TransferBeginBody,
    response: TransferStatusResponse,
    tags: ['fastrans'],
  }),
  /** The one call a restarted client makes to learn what the server has. */
  status: defineRoute({
    method: 'POST',
    path: '/fastrans/status.action',
    body: TransferStatusBody,
    response: TransferStatusResponse,
    tags: ['fastrans'],
  }),
  range: defineRoute({
    method: 'PUT',
    path: '/fastrans/range.action',
    query: TransferRangeQuery,
    bodyAs: 'bytes',
    response: TransferRangeResponse,
    tags: ['fastrans'],
  }),
  finalize: defineRoute({
    method: 'POST',
    path: '/fastrans/finalize.action',
    body: TransferFinalizeBody,
    response: TransferFinalizeResponse,
    tags: ['fastrans'],
  }),
  batch: defineRoute({
    method: 'PUT',
    path: '/fastrans/batch.action',
    query: TransferBatchQuery,
    bodyAs: 'bytes',
    response: TransferBatchResponse,
    tags: ['fastrans'],
  }),
  /** Which of a batch's small files are there already, byte for byte (a folder sent or fetched again). */
  same: defineRoute({
    method: 'POST',
    path: '/fastrans/same.action',
    body: TransferSameBody,
    response: TransferSameResponse,
    tags: ['fastrans'],
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/fastrans/cancel.action',
    body: TransferCancelBody,
    response: TransferCancelResponse,
    tags: ['fastrans'],
  }),
  /** NDJSON, one `ManifestEntry` a line (an envelope when refused). */
  manifest: defineRoute({
    method: 'POST',
    path: '/fastrans/manifest.action',
    body: TransferManifestBody,
    tags: ['fastrans'],
  }),
  /** With `Range`: the bytes of one file (206). */
  read: defineRoute({
    method: 'GET',
    path: '/fastrans/read.action',
    query: TransferReadQuery,
    tags: ['fastrans'],
  }),
  /** A tar of small files with their `hpc.sha256` pax headers. */
  readBatch: defineRoute({
    method: 'POST',
    path: '/fastrans/readBatch.action',
    body: TransferReadBatchBody,
    tags: ['fastrans'],
  }),
  sha256: defineRoute({
    method: 'POST',
    path: '/fastrans/sha256.action',
    body: TransferShaBody,
    response: TransferShaResponse,
    tags: ['fastrans'],
  }),
};

/**
 * The page's fast-transfer calls to the portal, under the model-zoo file-service prefix of spec §7: the session
 * cookie and the CSRF header. Forms or JSON.
 */
export const FastransPageRoutes = {
  /** The day token the client logs in with; `directory` (URL-encoded) must be inside the home (else 1030). */
  login: defineRoute({
    method: 'POST',
    path: '/model-zoo/proxy/efile/fastrans/login',
    body: FastransLoginBody,
    response: FastransLoginResponse,
    tags: ['fastrans'],
  }),
  /** spec §6: write permission on the target folder before a fast upload (`allowded`, the spec's spelling). */
  checkPermission: defineRoute({
    method: 'POST',
    path: '/model-zoo/proxy/efile/fastrans/checkPermission',
    body: FastransPermissionBody,
    response: FastransPermissionResponse,
    tags: ['fastrans'],
  }),
  /**
   * Whether a local client's `check` answer proves the session user's client key (docs/FASTRANS.md "Security"):
   * the page sends nothing else, above all no day token, to a client that does not.
   */
  verifyClient: defineRoute({
    method: 'POST',
    path: '/model-zoo/proxy/efile/fastrans/verifyClient',
    body: FastransVerifyClientBody,
    response: FastransVerifyClientResponse,
    tags: ['fastrans'],
  }),
  /**
   * The user's client key got out: a new key for the packages downloaded from now on; clients of earlier packages
   * are no longer the user's for the page, and the fast-transfer day tokens already issued are revoked.
   */
  revokeClientKey: defineRoute({
    method: 'POST',
    path: '/model-zoo/proxy/efile/fastrans/revokeClientKey',
    response: FastransRevokeClientKeyResponse,
    tags: ['fastrans'],
  }),
  /** The user's clients that called the portal lately, the most recent first. */
  presence: defineRoute({
    method: 'GET',
    path: '/model-zoo/proxy/efile/fastrans/presence',
    response: FastransPresenceResponse,
    tags: ['fastrans'],
  }),
  /** One local action through the portal to the client's outbound long poll; the answer is the client's. */
  relay: defineRoute({
    method: 'POST',
    path: '/model-zoo/proxy/efile/fastrans/relay',
    body: FastransRelayBody,
    response: FastransClientAnswer,
    tags: ['fastrans'],
  }),
};

/**
 * The client's calls to the portal, with the web token in `?token=`, answered with HTTP 200 and the client's result
 * codes; and the package it is installed from.
 */
export const FastransWebRoutes = {
  /** The fast-transfer web server: `{id, version, module, action, UK}`, answered `{id, code, msg, data}`. */
  api: defineRoute({
    method: 'POST',
    path: '/fastrans/api',
    query: FastransWebQuery,
    body: FastransWebBody,
    response: FastransWebResponse,
    tags: ['fastrans'],
  }),
  /** The client's long poll for the page's requests (`{seq, requests: [{n, m}]}`). */
  relayPoll: defineRoute({
    method: 'POST',
    path: '/fastrans/relay/poll',
    query: FastransWebQuery,
    body: FastransRelayPollBody,
    response: FastransClientAnswer,
    tags: ['fastrans'],
  }),
  relayAnswer: defineRoute({
    method: 'POST',
    path: '/fastrans/relay/answer',
    query: FastransWebQuery,
    body: FastransRelayAnswerBody,
    response: FastransClientAnswer,
    tags: ['fastrans'],
  }),
  /** The client package, with the portal's origin written into its config file (gzip, not an envelope). */
  clientPackage: defineRoute({ method: 'GET', path: '/share/fasttrans-client.tar.gz', tags: ['fastrans'] }),
};
