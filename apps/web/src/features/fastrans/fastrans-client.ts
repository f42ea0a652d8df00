import {
  FASTRANS_MIN_CLIENT_VERSION,
  FASTRANS_PORTS,
  FASTRANS_PROTOCOL_VERSION,
  FastransCodes,
  FastransRefusal,
  FastransTaskState,
  compareVersions,
  type FastransPresentClient,
} from '@hpc/contracts';
// Types only: the table's schemas are the client's to check, and must not reach the browser's bundle.
import type {
  FastransLocalAction,
  FastransLocalAnswer,
  FastransLocalCall,
  FastransLocalEntry,
  FastransLocalListing,
  FastransLocalRequest,
  FastransTaskSummary,
} from '@hpc/contracts';
import { isApiError } from '@hpc/api-client';
import { sameLanguage } from '../../shared/i18n/languages';
import { session, StorageKeys } from '../../shared/utils/storage';
import { fastransApi } from './fastrans.api';

/**
 * How long the portal waits for a client's answer to `check` through the relay: a live client's long poll takes a
 * request within a fraction of a second, so a client that has not answered by then has stopped.
 */
const RELAY_CHECK_WAIT_MS = 5_000;
/** Every how many seconds of relay polling the user's machines are asked for again. */
const RELAY_PRESENCE_EVERY = 5;

/** spec §9: how long a check reply is awaited, the pause before a second round, the wait after a login. */
export const FastransTimings = { checkReplyMs: 1000, retryMs: 300, afterLoginMs: 2500 } as const;

/** A task as the client reports it, and an entry of a local folder: the local protocol's own types. */
export type FastransTask = FastransTaskSummary;
export type LocalEntry = FastransLocalEntry;
export type LocalListing = FastransLocalListing;

/**
 * A refusal of the client (its result codes, spec §8) or of the portal, with the client's message: the English, and
 * the Chinese (`zh`) when the client or the portal wrote one (`refusalText` picks the page's language).
 */
export class FastransError extends Error {
  constructor(
    readonly code: string,
    msg: string,
    readonly data: unknown = null,
    readonly zh: string | null = null,
  ) {
    super(msg);
  }
}

/**
 * Where detection stands. `blocked`: nothing answered on 127.0.0.1, the client is running (it calls the portal) but
 * the relay did not answer either; `notRunning`: nothing answered and the portal has not heard from the client,
 * whatever the browser's permission (starting the client is the user's first step either way; the prompt adds the
 * browser's denial); `tooOld`: it answered with a version below the portal's minimum. A running client reached
 * through the relay is `connected` with `via: 'relay'`: the page says the browser blocks the direct way.
 * `unverified`: a program answered on a port but did not prove the user's client key (another account's program, or
 * a client from a package downloaded without the user's key), and no client of the user was reached otherwise.
 */
export type FastransStatus =
  'idle' | 'detecting' | 'connected' | 'notRunning' | 'blocked' | 'tooOld' | 'unverified';

export interface FastransSnapshot {
  status: FastransStatus;
  /** How actions travel: the local WebSocket, or the portal's relay to the client's outbound connection. */
  via: 'direct' | 'relay' | null;
  version: string | null;
  /** The browser's answer for local network access, where it has the permission (else null). */
  permission: PermissionState | null;
  tasks: FastransTask[];
  /**
   * Through the relay: the user's clients that poll it (one per machine, most recently seen first), and the one the
   * page drives (`client`, its id). Empty and null on the direct path.
   */
  clients: FastransPresentClient[];
  client: string | null;
  /** `unverified`: the port where a program that is not the user's client answered. */
  foreignPort: number | null;
}

interface Transport {
  send(m: FastransLocalCall): Promise<unknown>;
  close(): void;
}

type Listener = () => void;
type Done = (t: FastransTask) => void;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What answered `check` on a port: the socket, its version, and its proof of the sign (none: not verifiable). */
interface Answered {
  transport: Transport;
  version: string;
  sign: string;
  proof: string | null;
}

/** A random sign of 128 bits (base64url), so that a program on the port cannot reuse a proof it saw before. */
function randomSign(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * A WebSocket to one local port, answered once the check's sign comes back within the spec's second. The answer is
 * not yet trusted: the caller has the portal verify its proof before it sends anything else.
 */
function openDirect(
  port: number,
  onEvent: (e: { event: string; data: unknown }) => void,
  onClose: () => void,
) {
  return new Promise<Answered | null>((resolve) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(`ws://127.0.0.1:${port}`);
    } catch {
      resolve(null);
      return;
    }
    let seq = 0;
    const waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
    const sign = randomSign();
    let settled = false;
    const give = (v: Answered | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!v) ws.close();
      resolve(v);
    };
    const timer = setTimeout(() => give(null), FastransTimings.checkReplyMs);
    const transport: Transport = {
      send(m) {
        return new Promise((ok, fail) => {
          if (ws.readyState !== WebSocket.OPEN) {
            fail(new FastransError(FastransCodes.clientClosed, 'The client closed the connection'));
            return;
          }
          const id = ++seq;
          waiting.set(id, { ok, fail });
          ws.send(JSON.stringify({ ...m, id }));
        });
      },
      close: () => ws.close(),
    };
    ws.onopen = () => {
      transport.send({ action: 'check', sign }).then(
        (d) => {
          // Whatever answers on the port is not trusted to be our client until the sign comes back, and then not
          // before the portal verified its proof (`runDetect`).
          const data = d as Partial<FastransLocalAnswer<'check'>>;
          if (data.sign === sign && data.protocolVersion === FASTRANS_PROTOCOL_VERSION)
            give({
              transport,
              version: String(data.version ?? '0'),
              sign,
              proof: typeof data.proof === 'string' && data.proof !== '' ? data.proof : null,
            });
          else give(null);
        },
        () => give(null),
      );
    };
    ws.onmessage = (ev) => {
      let m: { id?: number; code?: string; msg?: string; zh?: string; data?: unknown; event?: string };
      try {
        m = JSON.parse(String(ev.data)) as typeof m;
      } catch {
        return;
      }
      if (typeof m.event === 'string') {
        onEvent({ event: m.event, data: m.data });
        return;
      }
      const w = typeof m.id === 'number' ? waiting.get(m.id) : undefined;
      if (!w) return;
      waiting.delete(m.id!);
      if (m.code === FastransCodes.ok) w.ok(m.data);
      else
        w.fail(
          new FastransError(
            String(m.code),
            String(m.msg ?? ''),
            m.data,
            typeof m.zh === 'string' ? m.zh : null,
          ),
        );
    };
    ws.onerror = () => give(null);
    ws.onclose = () => {
      give(null);
      for (const w of waiting.values())
        w.fail(new FastransError(FastransCodes.clientClosed, 'The client closed the connection'));
      waiting.clear();
      onClose();
    };
  });
}

/** The same actions through the portal to the client `client()` names (no events: the task list is asked for). */
const relayTransport = (client: () => string | null): Transport => ({
  async send(m) {
    try {
      return await fastransApi.relay(m, client() ?? undefined);
    } catch (e) {
      // The portal answered in the page's language (`Accept-Language`); its `Content-Language` says which.
      if (isApiError(e))
        throw new FastransError(e.code, e.msg, e.data, sameLanguage(e.lang, 'zh-CN') ? e.msg : null);
      throw e;
    }
  },
  close: () => undefined,
});

/**
 * `navigator.permissions` for local network access. 'loopback-network' is the one that decides for 127.0.0.1 (checked
 * in Chromium 156 by e2e/fastrans/fastrans-blocked.e2e.ts); 'local-network-access' for the Chrome versions before it.
 */
async function localAccessPermission(): Promise<PermissionState | null> {
  for (const name of ['loopback-network', 'local-network-access']) {
    try {
      const s = await navigator.permissions.query({ name } as unknown as PermissionDescriptor);
      return s.state;
    } catch {
      /* not a permission this browser knows */
    }
  }
  return null;
}

/**
 * The page's side of the fast-transfer client (spec §4 "client connection"): detection on the spec's ports, the
 * second path through the portal, the task list kept from the client's events, and the login before a transfer.
 * One per page (module state), so the toolbar, the prompt and the task list share it.
 */
export class FastransClient {
  private snap: FastransSnapshot = {
    status: 'idle',
    via: null,
    version: null,
    permission: null,
    tasks: [],
    clients: [],
    client: null,
    foreignPort: null,
  };
  private readonly relay = relayTransport(() => this.snap.client);
  private readonly listeners = new Set<Listener>();
  private readonly doneListeners = new Set<Done>();
  private transport: Transport | null = null;
  private detecting: Promise<FastransStatus> | null = null;
  private poller: ReturnType<typeof setInterval> | null = null;
  /** The cluster the client is logged in to from this page, and when (the 2.5 s wait after a login). */
  private login: { clusterId: string; at: number } | null = null;

  constructor(private readonly ports: readonly number[] = FASTRANS_PORTS) {}

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };
  getSnapshot = () => this.snap;

  /** Called with each task that turns successful (spec §4 "a transfer-success event fires"). */
  onTaskSuccess(l: Done): () => void {
    this.doneListeners.add(l);
    return () => void this.doneListeners.delete(l);
  }

  private set(patch: Partial<FastransSnapshot>) {
    this.snap = { ...this.snap, ...patch };
    for (const l of this.listeners) l();
  }

  private upsert(t: FastransTask) {
    const before = this.snap.tasks.find((x) => x.task_id === t.task_id);
    const tasks = before
      ? // A summary is whole: `listing` left out (a client before it) is not an earlier true kept.
        this.snap.tasks.map((x) =>
          x.task_id === t.task_id ? { ...x, ...t, listing: t.listing === true } : x,
        )
      : [t, ...this.snap.tasks];
    this.set({ tasks });
    if (t.state === FastransTaskState.successful && before?.state !== FastransTaskState.successful)
      for (const l of this.doneListeners) l(t);
  }

  /**
   * Detection: each port in order, a check within a second; a second round after 300 ms. When nothing answers,
   * the browser's permission and the client's presence at the portal tell "blocked" from "not running"; a running
   * client is then driven through the portal. Call it first from a click: Chrome shows its local-network prompt
   * only for a page the user acted on.
   */
  detect(): Promise<FastransStatus> {
    if (this.snap.status === 'connected' && this.transport) return Promise.resolve('connected');
    this.detecting ??= this.runDetect().finally(() => {
      this.detecting = null;
    });
    return this.detecting;
  }

  /**
   * Whether what answered `check` is the user's own client: its proof of the sign, verified by the portal with the
   * user's client key (docs/FASTRANS.md "Security"). No proof, a wrong one, or no answer from the portal: not used.
   */
  private async verified(found: Answered): Promise<boolean> {
    if (!found.proof) return false;
    try {
      return (await fastransApi.verifyClient(found.sign, found.proof)).ok === true;
    } catch {
      return false;
    }
  }

  private async runDetect(): Promise<FastransStatus> {
    this.set({ status: 'detecting', foreignPort: null });
    /** A port where a program answered the sign without proving the user's key. */
    let foreign: number | null = null;
    for (let round = 0; round < 2; round++) {
      if (round > 0) await sleep(FastransTimings.retryMs);
      for (const port of this.ports) {
        // Declared first: a socket may close (refused) before openDirect resolves.
        let mine: Transport | null = null;
        const found = await openDirect(
          port,
          (e) => {
            if (e.event === 'task') this.upsert(e.data as FastransTask);
          },
          () => {
            if (mine && this.transport === mine) this.lost();
          },
        );
        if (found && (await this.verified(found))) {
          mine = found.transport;
          this.transport = found.transport;
          return this.connected('direct', found.version);
        }
        if (found) {
          // Something answered the sign but is not this user's client (another account's program on the port, or
          // a client from a package without the user's key): nothing more is said to it, the next port is tried.
          foreign = port;
          found.transport.close();
        }
      }
    }
    const permission = await localAccessPermission();
    const presence = await fastransApi
      .presence()
      .catch(() => ({ running: false, version: null, clients: [] as FastransPresentClient[] }));
    this.set({ permission });
    if (presence.running) {
      // Running, but this page cannot reach 127.0.0.1: the same actions through the portal, to the machine chosen
      // earlier in this tab if it still polls, else the one seen most recently.
      const clients = (presence.clients ?? []).filter((c) => c.relay).sort((a, b) => b.at - a.at);
      const kept = session.get(StorageKeys.fastransRelayClient);
      // Each in turn until one answers: a client stopped without logging out (killed, its computer switched off)
      // still counts as polling for half a minute and must not stand in for a live one. No list (a portal before
      // client ids): the portal's only client.
      const order = [...clients.filter((c) => c.id === kept), ...clients.filter((c) => c.id !== kept)];
      for (const client of order.length > 0 ? order.map((c) => c.id) : [null]) {
        this.set({ clients, client });
        try {
          const d = (await fastransApi.relay(
            { action: 'check', sign: 'relay' },
            client ?? undefined,
            RELAY_CHECK_WAIT_MS,
          )) as Partial<FastransLocalAnswer<'check'>>;
          this.transport = this.relay;
          return this.connected('relay', String(d.version ?? presence.version ?? '0'));
        } catch {
          // Not this one: the next.
        }
      }
      if (foreign !== null) return this.unverified(foreign);
      this.set({ status: 'blocked', via: null, version: presence.version, client: null });
      return 'blocked';
    }
    if (foreign !== null) return this.unverified(foreign);
    // Not present: prompt (a) even when the browser denies local access. "Blocked" would send the user to the
    // browser's settings while the client is not even started; the prompt shows the denial as a second step.
    this.set({ status: 'notRunning', via: null, version: null });
    return 'notRunning';
  }

  /** Only programs that are not the user's client answered: the page says so (download the client again). */
  private unverified(port: number): FastransStatus {
    this.set({ status: 'unverified', via: null, version: null, client: null, foreignPort: port });
    return 'unverified';
  }

  private async connected(via: 'direct' | 'relay', version: string): Promise<FastransStatus> {
    const old = compareVersions(version, FASTRANS_MIN_CLIENT_VERSION) < 0;
    this.set({ status: old ? 'tooOld' : 'connected', via, version });
    if (via === 'relay') this.startPolling();
    await this.refreshTasks().catch(() => undefined);
    return old ? 'tooOld' : 'connected';
  }

  /**
   * The user picked another of their machines in the relay note: the page drives that client from now on (the
   * choice kept for the tab's session), logs it in before its first transfer, and shows its task list.
   */
  async chooseClient(id: string): Promise<void> {
    const c = this.snap.clients.find((x) => x.id === id);
    if (!c || id === this.snap.client) return;
    session.set(StorageKeys.fastransRelayClient, id);
    this.login = null;
    this.set({ client: id, version: c.version, tasks: [] });
    await this.refreshTasks().catch(() => undefined);
  }

  /** The user chose "continue uploading" with an old client. */
  acceptOldVersion() {
    if (this.snap.status === 'tooOld') this.set({ status: 'connected' });
  }

  private lost() {
    this.transport = null;
    this.login = null;
    this.stopPolling();
    this.set({ status: 'idle', via: null, clients: [], client: null });
  }

  /**
   * Without events (the relay), the task list is asked for every second while a component shows it, and the user's
   * machines every fifth second: a client started on another computer after detection can be chosen without
   * reloading the page. The client is module state and outlives E-File: once the user went elsewhere (nothing
   * subscribed), the portal and the client are asked nothing until a page shows the list again.
   */
  private startPolling() {
    this.stopPolling();
    let tick = 0;
    this.poller = setInterval(() => {
      if (this.listeners.size === 0) return;
      void this.refreshTasks().catch(() => undefined);
      if (++tick % RELAY_PRESENCE_EVERY === 0) void this.refreshClients().catch(() => undefined);
    }, 1000);
  }

  /**
   * The machines that poll the relay now. Known ones keep their place (a list that reorders under the user's
   * pointer gets the wrong machine picked; the portal sorts by last poll, which changes every second), new ones
   * join at the end, gone ones leave, except the one the page drives: it stays named until the user picks another.
   */
  private async refreshClients(): Promise<void> {
    const fresh = ((await fastransApi.presence()).clients ?? []).filter((c) => c.relay);
    const now = this.snap.clients;
    const kept = now.flatMap(
      (c) => fresh.find((f) => f.id === c.id) ?? (c.id === this.snap.client ? [c] : []),
    );
    const clients = [...kept, ...fresh.filter((f) => !now.some((c) => c.id === f.id))];
    const same =
      clients.length === now.length &&
      clients.every(
        (c, i) => c.id === now[i]!.id && c.label === now[i]!.label && c.version === now[i]!.version,
      );
    if (!same && this.snap.via === 'relay') this.set({ clients });
  }
  private stopPolling() {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  /** One action of the local protocol, its fields and its answer typed by contracts' `FastransLocalActions`. */
  async request<A extends FastransLocalAction>(
    action: A,
    // Fields may be left out only where the action has none required (`open_trans_list`, `start_update`).
    ...[fields]: Partial<FastransLocalRequest<A>> extends FastransLocalRequest<A>
      ? [FastransLocalRequest<A>?]
      : [FastransLocalRequest<A>]
  ): Promise<FastransLocalAnswer<A>> {
    if (!this.transport) throw new FastransError(FastransCodes.clientClosed, 'The client is not connected');
    return (await this.transport.send({ action, ...fields } as FastransLocalCall)) as FastransLocalAnswer<A>;
  }

  async refreshTasks(): Promise<void> {
    const asked = this.snap.client;
    const { list } = await this.request('open_trans_list');
    // The user switched machines while the answer was on its way: it is the other machine's list.
    if (this.snap.client !== asked) return;
    for (const t of list) this.upsert(t);
  }

  /** `get_task_info` with pause, resume, cancel or retry. */
  async control(taskId: string, control: 'pause' | 'resume' | 'cancel' | 'retry'): Promise<void> {
    this.upsert(await this.request('get_task_info', { task_id: taskId, control }));
  }

  /**
   * Logs the client in to `clusterId` with a day token from the portal (for `directory`, which must be inside the
   * home), then waits the spec's 2.5 s before the first transfer of this login.
   */
  async ensureLogin(clusterId: string, directory: string): Promise<void> {
    if (this.login?.clusterId !== clusterId) {
      const { token } = await fastransApi.login(directory, clusterId);
      await this.request('login', { token, portal: window.location.origin });
      this.login = { clusterId, at: Date.now() };
    }
    const wait = this.login.at + FastransTimings.afterLoginMs - Date.now();
    if (wait > 0) await sleep(wait);
  }

  async list(path?: string): Promise<LocalListing> {
    return this.request('list', { path: path ?? '', limit: 5000 });
  }

  async upload(clusterId: string, dir: string, local: LocalEntry[]): Promise<FastransTask[]> {
    await this.ensureLogin(clusterId, dir);
    const tasks: FastransTask[] = [];
    // One action per kind: the client checks each pick is what the page says (`type` 0 file, 1 folder).
    for (const type of [0, 1] as const) {
      const picks = local.filter((e) => (e.dir ? 1 : 0) === type).map((e) => e.path);
      if (picks.length === 0) continue;
      const r = await this.request('upload', { type, path: dir, local: picks });
      tasks.push(...r.tasks);
    }
    for (const t of tasks) this.upsert(t);
    return tasks;
  }

  async download(clusterId: string, dir: string, src: string[], localDir: string): Promise<FastransTask> {
    await this.ensureLogin(clusterId, dir);
    const { task } = await this.request('download', { src, path: localDir });
    this.upsert(task);
    return task;
  }

  /** The package's address to update from (the client downloads or runs nothing itself). */
  async updateUrl(): Promise<string> {
    const d = await this.request('start_update').catch(() => ({ url: null }));
    return d.url ?? FASTRANS_PACKAGE_URL;
  }

  /** For tests and a new login elsewhere. */
  close() {
    this.transport?.close();
    this.lost();
  }
}

/** Where the portal serves the client package (spec §7). */
export const FASTRANS_PACKAGE_URL = '/share/fasttrans-client.tar.gz';
/** The start button's link: registered by the package's install-url-handler.sh where the system allows. */
export const FASTRANS_START_URL = 'fastrans://start';

export const fastransClient = new FastransClient();

/** A refusal of fast transfer by the portal or the client, as the key of its warning. */
export function refusalKey(e: unknown): string | null {
  const code = e instanceof FastransError ? e.code : isApiError(e) ? e.code : null;
  const data = e instanceof FastransError || isApiError(e) ? e.data : null;
  const reason = (data as { reason?: string } | null)?.reason;
  if (reason === FastransRefusal.outsideHome) return 'fastrans.warn.outsideHome';
  if (reason === FastransRefusal.noWrite) return 'fastrans.warn.noWrite';
  if (reason === FastransRefusal.chooseClient) return 'fastrans.relay.chooseClient';
  if (reason === FastransRefusal.otherOwner) return 'fastrans.warn.otherOwner';
  if (code === FastransCodes.versionTooOld) return 'fastrans.prompt.oldTitle';
  return null;
}
