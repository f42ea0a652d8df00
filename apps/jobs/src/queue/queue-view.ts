import type { KvStore } from '@hpc/server-kit';
import type { ClusterInfo, QueueJob } from '../scheduler/scheduler';
import { QUEUE_AT_KEY, QUEUE_KEY, type Poller, type Snapshot } from './queue-poller';

/** A user's own actions are remembered this long: surely past the next reading of the queue. */
const OWN_TTL_MS = 10 * 60_000;
/** At most this many recent actions of one user are merged (more than anyone does between two readings). */
const OWN_WINDOW = 64;

interface OwnEntry {
  at: number;
  job: QueueJob;
}

const newestFirst = (a: QueueJob, b: QueueJob) => {
  const [ai, at = '0'] = a.jobId.split('_');
  const [bi, bt = '0'] = b.jobId.split('_');
  return Number(bi) - Number(ai) || Number(bt) - Number(at);
};

/**
 * What every list answers from (issue 22 §2): the poller's snapshot, parsed once per reading in each instance and
 * indexed by user, plus the user's own actions since that reading. An action (submit, cancel, hold, release) reads
 * just those jobs again and records them under a per-user counter (one KV key per action, so parallel submits of
 * one user never overwrite each other), so it shows at once on any instance; the next reading supersedes it.
 */
export function createQueueView(kv: KvStore, poller: Poller) {
  let local: {
    at: number;
    byUser: Map<string, QueueJob[]>;
    byId: Map<string, QueueJob>;
    cluster: ClusterInfo | null;
  } | null = null;
  let loading: Promise<void> | null = null;

  async function load(at: string): Promise<void> {
    const raw = await kv.get(QUEUE_KEY);
    if (!raw) return;
    const snap = JSON.parse(raw) as Snapshot;
    if (String(snap.at) !== at && local && snap.at <= local.at) return;
    const byUser = new Map<string, QueueJob[]>();
    const byId = new Map<string, QueueJob>();
    for (const j of snap.jobs) {
      byId.set(j.jobId, j);
      let list = byUser.get(j.user);
      if (!list) byUser.set(j.user, (list = []));
      list.push(j);
    }
    for (const list of byUser.values()) list.sort(newestFirst);
    local = { at: snap.at, byUser, byId, cluster: snap.cluster };
  }

  /** The latest snapshot in this instance (one small KV read to learn whether a newer one exists). */
  async function current() {
    let at = await kv.get(QUEUE_AT_KEY);
    if (!at) {
      // Nothing read yet on the whole cluster (a fresh start): read now rather than answer an empty queue.
      await poller.pollNow();
      at = await kv.get(QUEUE_AT_KEY);
    }
    if (at && (!local || String(local.at) !== at)) {
      loading ??= load(at).finally(() => (loading = null));
      await loading;
    }
    return local;
  }

  async function ownSince(user: string, since: number): Promise<OwnEntry[]> {
    const n = Number((await kv.get(`own:${user}:n`)) ?? 0);
    if (!n) return [];
    const keys: string[] = [];
    for (let i = n; i > Math.max(0, n - OWN_WINDOW); i--) keys.push(`own:${user}:${i}`);
    const raws = await Promise.all(keys.map((k) => kv.get(k)));
    return raws.flatMap((r) => (r ? [JSON.parse(r) as OwnEntry] : [])).filter((e) => e.at > since);
  }

  return {
    current,
    /** The user's jobs, newest first: the snapshot's, with the user's own later actions applied. */
    async jobsOf(user: string): Promise<{ jobs: QueueJob[]; at: number }> {
      const snap = await current();
      const at = snap?.at ?? 0;
      const base = snap?.byUser.get(user) ?? [];
      const own = await ownSince(user, at);
      if (own.length === 0) return { jobs: base, at };
      const merged = new Map(base.map((j) => [j.jobId, j]));
      // Oldest first, so the latest action on a job wins.
      // Only jobs of this user: what an action read back is the scheduler's word, and its owner is checked here, the
      // one place every reader of the user's jobs goes through (the list, a job's detail, cancel/hold/release).
      for (const e of own.sort((a, b) => a.at - b.at))
        if (e.job.user === user) merged.set(e.job.jobId, e.job);
      return { jobs: [...merged.values()].sort(newestFirst), at };
    },
    /** A job by id as the snapshot knows it (any user's: callers check the owner). */
    async job(jobId: string): Promise<QueueJob | null> {
      return (await current())?.byId.get(jobId) ?? null;
    },
    /** Records the fresh state of jobs a user just acted on. */
    async noteOwn(user: string, jobs: QueueJob[], at = Date.now()): Promise<void> {
      for (const job of jobs) {
        const i = await kv.incr(`own:${user}:n`, 24 * 3600_000);
        await kv.set(`own:${user}:${i}`, JSON.stringify({ at, job } satisfies OwnEntry), OWN_TTL_MS);
      }
    },
  };
}
export type QueueView = ReturnType<typeof createQueueView>;
