import { acquireLock, claimInterval, type KvStore } from '@hpc/server-kit';
import type { ClusterInfo, QueueJob, SchedulerReader } from '../scheduler/scheduler';

/** What the poller shares through the KV store (keys below the service's prefix). */
export const QUEUE_KEY = 'queue';
export const QUEUE_AT_KEY = 'queue:at';
export const STATUS_KEY = 'queue:status';
const RUNNING_LOCK = 'queue:polling';
/** Kept long after the last reading: an outage shows the last known queue, marked as old, not an empty one. */
const SNAPSHOT_TTL_MS = 24 * 3600_000;

export interface Snapshot {
  at: number;
  jobs: QueueJob[];
  cluster: ClusterInfo | null;
}

export interface PollStatus {
  /** When the last good reading was taken (0: never). */
  updatedAt: number;
  error: string | null;
  downSince: number | null;
}

export interface PollerOptions {
  kv: KvStore;
  reader: SchedulerReader;
  intervalMs: number;
  /** Partitions, nodes and associations change slowly: read them this often (and always at the first poll). */
  clusterEveryMs: number;
  now?: () => number;
  log?: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

/**
 * One poller per cluster (issue 22 §2): every instance of the job service runs this timer, and for each interval the
 * first instance to claim it (`claimInterval`) reads the whole queue once, as the service, and shares it through the
 * KV store; a lock held while it reads keeps a slow reading from overlapping the next one on another instance. So
 * the scheduler sees one queue read per interval whatever the number of instances and browsers. A failed reading
 * keeps the last snapshot and records the outage, which the lists report until a reading succeeds again.
 */
export function createPoller(o: PollerOptions) {
  const now = o.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let lastCluster: { at: number; info: ClusterInfo } | null = null;
  let reads = 0;

  async function readStatus(): Promise<PollStatus> {
    const raw = await o.kv.get(STATUS_KEY);
    return raw ? (JSON.parse(raw) as PollStatus) : { updatedAt: 0, error: null, downSince: null };
  }

  async function pollOnce(): Promise<void> {
    const lock = await acquireLock(o.kv, RUNNING_LOCK, Math.max(30_000, o.intervalMs * 4));
    if (!lock) return;
    const started = now();
    try {
      reads++;
      const jobs = await o.reader.readQueue();
      // The cluster's shape is read with the queue when due; a failure there keeps the previous one.
      let cluster = lastCluster?.info ?? null;
      if (!lastCluster || started - lastCluster.at >= o.clusterEveryMs) {
        cluster = await o.reader.readCluster().catch((e: Error) => {
          o.log?.warn({ err: e.message }, 'reading partitions and nodes failed; keeping the previous ones');
          return lastCluster?.info ?? null;
        });
        if (cluster) lastCluster = { at: started, info: cluster };
      }
      const snapshot: Snapshot = { at: started, jobs, cluster };
      await o.kv.set(QUEUE_KEY, JSON.stringify(snapshot), SNAPSHOT_TTL_MS);
      await o.kv.set(QUEUE_AT_KEY, String(started), SNAPSHOT_TTL_MS);
      const before = await readStatus();
      if (before.error) o.log?.info({ downSince: before.downSince }, 'the scheduler answers again');
      await o.kv.set(
        STATUS_KEY,
        JSON.stringify({ updatedAt: started, error: null, downSince: null }),
        SNAPSHOT_TTL_MS,
      );
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const before = await readStatus().catch(() => null);
      if (!before?.error)
        o.log?.warn({ err: message }, 'the scheduler does not answer; the lists show the last reading');
      await o.kv
        .set(
          STATUS_KEY,
          JSON.stringify({
            updatedAt: before?.updatedAt ?? 0,
            error: message,
            downSince: before?.downSince ?? started,
          }),
          SNAPSHOT_TTL_MS,
        )
        .catch(() => undefined);
    } finally {
      await lock.release();
    }
  }

  /** Polls if this instance wins the current interval; never two readings at once in this process. */
  async function tick(): Promise<void> {
    if (running) return;
    const slot = await claimInterval(o.kv, 'jobs-poll', o.intervalMs, now()).catch(() => null);
    if (slot === null) return;
    running = pollOnce().finally(() => (running = null));
    await running;
  }

  return {
    start() {
      if (timer) return;
      void tick();
      timer = setInterval(() => void tick(), Math.max(100, Math.floor(o.intervalMs / 4)));
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
    /** One tick of the timer: reads when this instance wins the current interval (tests drive it by hand). */
    tick,
    /** Reads now, whatever the interval, after a reading under way (the first request on an empty store; tests). */
    async pollNow(): Promise<void> {
      while (running) await running;
      running = pollOnce().finally(() => (running = null));
      await running;
    },
    status: readStatus,
    /** How many queue readings this process made (the bench counts them; slurmctld's own count is sdiag's). */
    get reads() {
      return reads;
    },
  };
}
export type Poller = ReturnType<typeof createPoller>;
