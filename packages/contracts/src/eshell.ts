import { Type, type Static } from 'typebox';
import { Envelope } from './envelope';

/**
 * The shell service of one cluster (issue 26): the cluster's `sothisai_service`, health `GET
 * /sothisai/api/eshell/action/check` (spec §7). The token travels in the `token` header as for efile; the terminal
 * itself is a WebSocket at `ESHELL_WS_PATH` that a one-time ticket (issued by `ticket`) opens: the ticket travels in
 * the socket's first message, never in the address.
 */

/** The WebSocket of the terminal, under the service's URL. */
export const ESHELL_WS_PATH = '/sothisai/api/eshell/ws';

/** A login node address as `sshAddressList` holds it: host or host:port. */
export const LoginNodeAddress = Type.String({
  minLength: 1,
  maxLength: 260,
  pattern: '^[A-Za-z0-9_.:\\[\\]-]+$',
});
export const ShellSessionId = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' });

export const EshellCheckResponse = Envelope(
  Type.Object({
    check_result: Type.Boolean(),
    version: Type.String(),
    clusterId: Type.String(),
    /** The login nodes this service can open a shell on (their host keys are pinned in its configuration). */
    nodes: Type.Array(Type.String()),
  }),
);

export const EshellTicketBody = Type.Object({
  /** A new session on this login node… */
  node: Type.Optional(LoginNodeAddress),
  /** …or the user's running session to attach to again. */
  sessionId: Type.Optional(ShellSessionId),
  /**
   * A new session starts in this folder (cluster path; E-File's "open a shell here"). No NUL: it would cut the
   * login's command short, and the session ended at once with bash's "unexpected EOF".
   */
  cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, pattern: '^[^\\u0000]*$' })),
  cols: Type.Optional(Type.Integer({ minimum: 2, maximum: 1000 })),
  rows: Type.Optional(Type.Integer({ minimum: 2, maximum: 500 })),
});
export type EshellTicketBody = Static<typeof EshellTicketBody>;

export const EshellTicketResponse = Envelope(
  Type.Object({
    ticket: Type.String(),
    /** The session the ticket opens or attaches to. */
    sessionId: ShellSessionId,
    expiresInMs: Type.Integer(),
  }),
);

export const EshellSession = Type.Object({
  sessionId: ShellSessionId,
  node: Type.String(),
  startedAt: Type.Integer(),
  attached: Type.Boolean(),
});
export type EshellSession = Static<typeof EshellSession>;
export const EshellSessionsResponse = Envelope(Type.Object({ sessions: Type.Array(EshellSession) }));

export const EshellCloseBody = Type.Object({ sessionId: ShellSessionId });

/** What the page sends on the socket (JSON text frames). The first one must be `auth`. */
export type ShellClientMessage =
  { t: 'auth'; ticket: string } | { t: 'in'; d: string } | { t: 'resize'; cols: number; rows: number };

/** Why a session ended, as the page is told (it translates it). */
export type ShellEndReason =
  'exit' | 'idle' | 'detached' | 'revoked' | 'rights' | 'closed' | 'shutdown' | 'limit' | 'error';

/**
 * What the service sends: the terminal's output as binary frames (the bytes of the pty, UTF-8), and these JSON text
 * frames. `ready` comes once per attach, after the replayed scroll-back (`replayed` bytes of it).
 */
export type ShellServerMessage =
  | { t: 'ready'; sessionId: string; node: string; replayed: number }
  | { t: 'end'; reason: ShellEndReason; code: number | null; message?: string };
