import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Present = { id: string; label: string; version: string; relay: boolean; at: number };
const api = vi.hoisted(() => ({
  presence: vi.fn(async () => ({
    running: false,
    version: null as string | null,
    clients: undefined as Present[] | undefined,
  })),
  relay: vi.fn(
    async (_m: Record<string, unknown>, _client?: string, _wait?: number): Promise<unknown> => ({}),
  ),
  login: vi.fn(async () => ({ token: 'day-token' })),
  canWrite: vi.fn(async () => ({ allowded: true })),
  /** The portal's check of a client's proof: the fake clients below prove `p:<sign>`. */
  verifyClient: vi.fn(async (sign: string, proof: string) => ({ ok: proof === `p:${sign}` })),
}));
vi.mock('./fastrans.api', () => ({ fastransApi: api }));

import { FastransClient, type FastransTask } from './fastrans-client';

/**
 * A client echoes the sign and proves the user's key (`p:<sign>`); `proof: 'none'` answers without a proof (a
 * program of another account, or a client without the user's key), `'wrong'` with another key's proof.
 */
type Behaviour = 'refuse' | 'silent' | { version: string; wrongSign?: boolean; proof?: 'none' | 'wrong' };

/** A stand-in for the browser's WebSocket to 127.0.0.1: each port refuses, stays silent or answers as a client. */
class FakeSocket {
  static OPEN = 1;
  static ports: Record<number, Behaviour> = {};
  static tried: number[] = [];
  static last: FakeSocket | null = null;
  static all: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  readonly behaviour: Behaviour;
  readonly port: number;
  sent: Record<string, unknown>[] = [];

  constructor(url: string) {
    const port = Number(new URL(url).port);
    FakeSocket.tried.push(port);
    FakeSocket.last = this;
    FakeSocket.all.push(this);
    this.port = port;
    this.behaviour = FakeSocket.ports[port] ?? 'refuse';
    queueMicrotask(() => {
      if (this.behaviour === 'refuse') {
        this.onerror?.();
        this.onclose?.();
      } else {
        this.readyState = 1;
        this.onopen?.();
      }
    });
  }
  send(text: string) {
    const m = JSON.parse(text) as { id: number; action: string; sign?: string };
    this.sent.push(m);
    const b = this.behaviour;
    if (b === 'silent' || b === 'refuse') return;
    const data =
      m.action === 'check'
        ? {
            sign: b.wrongSign ? 'other' : m.sign,
            version: b.version,
            protocolVersion: 1,
            ...(b.proof === 'none' ? {} : { proof: b.proof === 'wrong' ? `q:${m.sign}` : `p:${m.sign}` }),
          }
        : m.action === 'open_trans_list'
          ? { list: [] }
          : null;
    queueMicrotask(() => this.onmessage?.({ data: JSON.stringify({ id: m.id, code: '0', msg: '', data }) }));
  }
  event(data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ event: 'task', data }) });
  }
  close() {
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.());
  }
}

const task = (state: number): FastransTask => ({
  task_id: 't1',
  kind: 'upload',
  state,
  files: 1,
  count: state === 10 ? 1 : 0,
  failed: 0,
  bytesDone: 0,
  bytesTotal: 1,
  speed: 0,
  eta: null,
  local: '/l',
  remote: '/public/home/u',
  error: null,
  createdAt: 0,
  updatedAt: 0,
});

describe('detecting the fast-transfer client', () => {
  beforeEach(() => {
    vi.stubGlobal('WebSocket', FakeSocket);
    FakeSocket.ports = {};
    FakeSocket.tried = [];
    FakeSocket.all = [];
    api.verifyClient.mockClear();
    api.login.mockClear();
    api.presence.mockResolvedValue({ running: false, version: null, clients: undefined });
    api.relay.mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('tries the ports in order and takes the first that returns its sign', async () => {
    FakeSocket.ports = { 2: { version: '1.0.0', wrongSign: true }, 3: { version: '1.2.0' } };
    const c = new FastransClient([1, 2, 3, 4]);
    expect(await c.detect()).toBe('connected');
    expect(FakeSocket.tried).toEqual([1, 2, 3]);
    expect(c.getSnapshot()).toMatchObject({ status: 'connected', via: 'direct', version: '1.2.0' });
  });

  it("a program that echoes the sign without the user's key is never sent a login or a token; the next port is tried", async () => {
    // Another account's program on the first port (no proof), one with another key's proof on the second; the
    // user's client on the third.
    vi.stubGlobal('window', { location: { origin: 'https://portal.example' } });
    FakeSocket.ports = {
      1: { version: '9.9.9', proof: 'none' },
      2: { version: '9.9.9', proof: 'wrong' },
      3: { version: '1.2.0' },
    };
    const c = new FastransClient([1, 2, 3, 4]);
    expect(await c.detect()).toBe('connected');
    expect(FakeSocket.tried).toEqual([1, 2, 3]);
    expect(c.getSnapshot()).toMatchObject({ status: 'connected', via: 'direct', version: '1.2.0' });
    // The portal was asked of the proof that came (none asked for the first), with the sign the page made.
    expect(api.verifyClient).toHaveBeenCalledTimes(2);
    const [sign2, proof2] = api.verifyClient.mock.calls[0]!;
    expect(sign2.length).toBeGreaterThanOrEqual(20);
    expect(proof2).toBe(`q:${sign2}`);
    await c.ensureLogin('11250', '/public/home/u');
    const [first, second, mine] = FakeSocket.all;
    for (const foreign of [first!, second!]) {
      expect(foreign.sent.map((m) => m.action)).toEqual(['check']);
      expect(JSON.stringify(foreign.sent)).not.toContain('day-token');
      expect(foreign.readyState).toBe(3);
    }
    expect(mine!.sent.filter((m) => m.action === 'login')).toEqual([
      expect.objectContaining({ token: 'day-token' }),
    ]);
    c.close();
  }, 10_000);

  it("only programs that are not the user's client answer: unverified, with the port to name, nothing sent to them", async () => {
    FakeSocket.ports = { 1: { version: '1.2.0', proof: 'none' } };
    const c = new FastransClient([1, 2]);
    expect(await c.detect()).toBe('unverified');
    expect(c.getSnapshot()).toMatchObject({ status: 'unverified', via: null, foreignPort: 1 });
    for (const s of FakeSocket.all) expect(s.sent.every((m) => m.action === 'check')).toBe(true);
    // No transport: a transfer cannot reach the program.
    await expect(c.request('open_trans_list')).rejects.toThrow(/not connected/);
    // Present at the portal: the relay still reaches the user's own client (it logged in with its day token).
    api.presence.mockResolvedValue({ running: true, version: '1.0.0', clients: undefined });
    api.relay.mockImplementation(async (m) =>
      m.action === 'check' ? { sign: 'relay', version: '1.0.0', protocolVersion: 1 } : { list: [] },
    );
    expect(await c.detect()).toBe('connected');
    expect(c.getSnapshot()).toMatchObject({ via: 'relay' });
    c.close();
  }, 10_000);

  it('the portal not answering the verification counts as not verified', async () => {
    api.verifyClient.mockRejectedValueOnce(new Error('offline')).mockRejectedValueOnce(new Error('offline'));
    FakeSocket.ports = { 1: { version: '1.2.0' } };
    const c = new FastransClient([1]);
    expect(await c.detect()).toBe('unverified');
    expect(FakeSocket.all.flatMap((s) => s.sent.map((m) => m.action))).toEqual(['check', 'check']);
  }, 10_000);

  it('waits 1 s for a check reply, then a second round 300 ms later; nothing and no presence: not running', async () => {
    vi.useFakeTimers();
    FakeSocket.ports = { 1: 'silent' };
    const c = new FastransClient([1, 2]);
    const result = c.detect();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.tried).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.tried).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(299);
    expect(FakeSocket.tried).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.tried).toEqual([1, 2, 1]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await result).toBe('notRunning');
    expect(FakeSocket.tried).toEqual([1, 2, 1, 2]);
    expect(api.relay).not.toHaveBeenCalled();
  });

  it('a client present at the portal but unreachable is driven through the relay', async () => {
    api.presence.mockResolvedValue({ running: true, version: '1.0.0', clients: undefined });
    api.relay.mockImplementation(async (m) =>
      m.action === 'check' ? { sign: 'relay', version: '1.0.0', protocolVersion: 1 } : { list: [task(7)] },
    );
    const c = new FastransClient([1]);
    expect(await c.detect()).toBe('connected');
    expect(c.getSnapshot()).toMatchObject({ via: 'relay' });
    expect(c.getSnapshot().tasks.map((t) => t.state)).toEqual([7]);
    c.close();
  });

  it('through the relay, asks for the task list every second only while a component shows it', async () => {
    vi.useFakeTimers();
    api.presence.mockResolvedValue({ running: true, version: '1.0.0', clients: undefined });
    api.relay.mockImplementation(async (m) =>
      m.action === 'check' ? { sign: 'relay', version: '1.0.0', protocolVersion: 1 } : { list: [] },
    );
    const c = new FastransClient([1]);
    const unsubscribe = c.subscribe(() => undefined);
    const detected = c.detect();
    await vi.advanceTimersByTimeAsync(2_000);
    const presences = api.presence.mock.calls.length;
    expect(await detected).toBe('connected');
    const lists = () => api.relay.mock.calls.filter(([m]) => m.action === 'open_trans_list').length;
    const shown = lists();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(lists()).toBe(shown + 3);
    // The user left E-File: the bar unsubscribed, and nothing is asked any more.
    unsubscribe();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lists()).toBe(shown + 3);
    expect(api.presence.mock.calls.length).toBe(presences);
    // Back on the page: the list is asked for again.
    const again = c.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lists()).toBe(shown + 4);
    again();
    c.close();
  });

  it('not present while the browser denies local access: not running (prompt a), the denial kept for it', async () => {
    const query = vi.fn(async ({ name }: { name: string }) => {
      if (name !== 'loopback-network') throw new TypeError('unknown permission');
      return { state: 'denied' };
    });
    vi.stubGlobal('navigator', { permissions: { query } });
    const c = new FastransClient([1]);
    expect(await c.detect()).toBe('notRunning');
    expect(c.getSnapshot()).toMatchObject({ status: 'notRunning', permission: 'denied', via: null });
    expect(query).toHaveBeenCalledWith({ name: 'loopback-network' });
    expect(api.relay).not.toHaveBeenCalled();
  });

  it('present but the relay fails too: blocked, not "not running"', async () => {
    api.presence.mockResolvedValue({ running: true, version: '1.0.0', clients: undefined });
    api.relay.mockRejectedValue(new Error('no answer'));
    expect(await new FastransClient([1]).detect()).toBe('blocked');
  });

  it('an older client version is detected as too old until the user continues', async () => {
    FakeSocket.ports = { 1: { version: '0.9.9' } };
    const c = new FastransClient([1]);
    expect(await c.detect()).toBe('tooOld');
    c.acceptOldVersion();
    expect(c.getSnapshot().status).toBe('connected');
  });

  it('fires the success listener once when a task turns successful', async () => {
    FakeSocket.ports = { 1: { version: '1.0.0' } };
    const c = new FastransClient([1]);
    await c.detect();
    const done = vi.fn();
    c.onTaskSuccess(done);
    FakeSocket.last!.event(task(7));
    FakeSocket.last!.event(task(10));
    FakeSocket.last!.event(task(10));
    expect(done).toHaveBeenCalledTimes(1);
    expect(c.getSnapshot().tasks).toHaveLength(1);
  });

  it('a summary replaces the one before whole: a task no longer listing does not keep an earlier "listing"', async () => {
    FakeSocket.ports = { 1: { version: '1.0.0' } };
    const c = new FastransClient([1]);
    await c.detect();
    FakeSocket.last!.event({ ...task(7), listing: true });
    expect(c.getSnapshot().tasks[0]!.listing).toBe(true);
    // A client that leaves the key out once the list is whole, as JSON leaves out what is undefined.
    FakeSocket.last!.event(task(10));
    expect(c.getSnapshot().tasks[0]!.listing).toBe(false);
  });

  it('logs the client in once per cluster and waits 2.5 s after the login before a transfer', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('window', { location: { origin: 'https://portal.example' } });
    FakeSocket.ports = { 1: { version: '1.0.0' } };
    const c = new FastransClient([1]);
    const detected = c.detect();
    await vi.advanceTimersByTimeAsync(0);
    await detected;
    let ready = false;
    void c.ensureLogin('c1', '/public/home/u').then(() => (ready = true));
    await vi.advanceTimersByTimeAsync(2499);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ready).toBe(true);
    expect(FakeSocket.last!.sent.filter((m) => m.action === 'login')).toEqual([
      expect.objectContaining({ token: 'day-token', portal: 'https://portal.example' }),
    ]);
    await c.ensureLogin('c1', '/public/home/u');
    expect(api.login).toHaveBeenCalledTimes(1);
  });

  /** The portal lists `clients` as running; the tab's sessionStorage is a fresh map. */
  const severalClients = (clients: Present[]) => {
    const stored = new Map<string, string>();
    vi.stubGlobal('window', {
      sessionStorage: {
        getItem: (k: string) => stored.get(k) ?? null,
        setItem: (k: string, v: string) => void stored.set(k, v),
      },
    });
    api.presence.mockResolvedValue({ running: true, version: '1.1.0', clients });
  };
  /** What a live client answers through the relay: `check`, and an empty task list. */
  const relayAnswer = (m: Record<string, unknown>) =>
    m.action === 'check' ? { sign: 'relay', version: '1.1.0', protocolVersion: 1 } : { list: [] };

  it("with clients on several machines, drives the one seen most recently, or the tab's earlier choice", async () => {
    severalClients([
      { id: 'laptop', label: 'laptop', version: '1.1.0', relay: true, at: 2_000 },
      { id: 'old-pc', label: 'old', version: '1.0.0', relay: false, at: 3_000 },
      { id: 'work', label: 'workstation', version: '1.2.0', relay: true, at: 1_000 },
    ]);
    api.relay.mockImplementation(async (m) => relayAnswer(m));
    const c = new FastransClient([1]);
    expect(await c.detect()).toBe('connected');
    // Only the relaying ones are offered; the most recent of them is driven, every action addressed to it.
    expect(c.getSnapshot()).toMatchObject({ via: 'relay', client: 'laptop' });
    expect(c.getSnapshot().clients.map((x) => x.id)).toEqual(['laptop', 'work']);
    expect(api.relay.mock.calls.every(([, client]) => client === 'laptop')).toBe(true);

    await c.chooseClient('work');
    expect(c.getSnapshot()).toMatchObject({ client: 'work', version: '1.2.0' });
    expect(api.relay.mock.calls.at(-1)).toEqual([{ action: 'open_trans_list' }, 'work']);
    c.close();

    // A new detection in the same tab keeps the choice.
    const again = new FastransClient([1]);
    await again.detect();
    expect(again.getSnapshot().client).toBe('work');
    again.close();
  });

  it('a client that stopped without logging out is passed over for the next one that answers', async () => {
    severalClients([
      { id: 'killed', label: 'laptop', version: '1.1.0', relay: true, at: 2_000 },
      { id: 'work', label: 'workstation', version: '1.1.0', relay: true, at: 1_000 },
    ]);
    api.relay.mockImplementation(async (m, client) => {
      if (client === 'killed') throw new Error('no answer');
      return relayAnswer(m);
    });
    const c = new FastransClient([1]);
    expect(await c.detect()).toBe('connected');
    expect(c.getSnapshot()).toMatchObject({ via: 'relay', client: 'work' });
    // Each check waited briefly, not the relay's full 25 s.
    const checks = api.relay.mock.calls.filter(([m]) => m.action === 'check');
    expect(checks.map(([, client, wait]) => [client, wait])).toEqual([
      ['killed', 5_000],
      ['work', 5_000],
    ]);
    c.close();
  });
  it('through the relay, machines started later join the list at its end, the list keeps its order', async () => {
    vi.useFakeTimers();
    const laptop = { id: 'laptop', label: 'laptop', version: '1.1.0', relay: true, at: 2_000 };
    const work = { id: 'work', label: 'workstation', version: '1.1.0', relay: true, at: 1_000 };
    severalClients([laptop, work]);
    api.relay.mockImplementation(async (m) => relayAnswer(m));
    const c = new FastransClient([1]);
    // The relay note shows the machines (polling runs only while something shows the client's state).
    const unsubscribe = c.subscribe(() => undefined);
    const detected = c.detect();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await detected).toBe('connected');
    expect(c.getSnapshot().clients.map((x) => x.id)).toEqual(['laptop', 'work']);
    // The portal now sorts the workstation first (it polled last) and lists a third machine; the laptop stopped.
    const home = { id: 'home', label: 'home-pc', version: '1.1.0', relay: true, at: 4_000 };
    api.presence.mockResolvedValue({
      running: true,
      version: '1.1.0',
      clients: [{ ...work, at: 5_000 }, home],
    });
    await vi.advanceTimersByTimeAsync(5_000);
    // The laptop is the machine driven: it stays named; the others in their first order, the new one last.
    expect(c.getSnapshot().clients.map((x) => x.id)).toEqual(['laptop', 'work', 'home']);
    await c.chooseClient('home');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(c.getSnapshot().clients.map((x) => x.id)).toEqual(['work', 'home']);
    unsubscribe();
    c.close();
  });

  it("a task list asked for before the user switched machines is dropped, not shown as the new machine's", async () => {
    severalClients([
      { id: 'laptop', label: 'laptop', version: '1.1.0', relay: true, at: 2_000 },
      { id: 'work', label: 'workstation', version: '1.1.0', relay: true, at: 1_000 },
    ]);
    let answerLate: (() => void) | null = null;
    api.relay.mockImplementation(async (m, client) => {
      if (m.action === 'open_trans_list' && client === 'laptop' && answerLate === null)
        return new Promise((ok) => (answerLate = () => ok({ list: [task(7)] })));
      return relayAnswer(m);
    });
    const c = new FastransClient([1]);
    const detected = c.detect();
    await vi.waitFor(() => expect(answerLate).not.toBeNull());
    await c.chooseClient('work');
    answerLate!();
    await detected;
    expect(c.getSnapshot()).toMatchObject({ client: 'work', tasks: [] });
    c.close();
  });
});
