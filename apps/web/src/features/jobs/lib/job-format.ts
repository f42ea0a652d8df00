/** Seconds as `1-02:03:04` / `02:03:04` / `03:04` (Slurm's own way, the same in both languages). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  const hms = h > 0 || d > 0 ? `${two(h)}:${two(m)}:${two(sec)}` : `${two(m)}:${two(sec)}`;
  return d > 0 ? `${d}-${hms}` : hms;
}

/** Seconds left of a running job's time limit (null: no limit, or not running). */
export function secondsLeft(j: {
  state: string;
  elapsedSeconds: number;
  timeLimitMinutes: number | null;
}): number | null {
  if (j.state !== 'RUNNING' || j.timeLimitMinutes === null) return null;
  return Math.max(0, j.timeLimitMinutes * 60 - j.elapsedSeconds);
}

/** The elapsed seconds of a job now: the answer's value plus the time since it was fetched, while running. */
export const elapsedNow = (
  j: { state: string; elapsedSeconds: number },
  fetchedAt: number,
  now: number,
): number =>
  j.state === 'RUNNING'
    ? j.elapsedSeconds + Math.max(0, Math.floor((now - fetchedAt) / 1000))
    : j.elapsedSeconds;

/** A job in the queue or on its nodes: its end, its exit code and more output are still to come. */
export const isActive = (state: string): boolean =>
  state === 'RUNNING' || state === 'COMPLETING' || state === 'PENDING';

/** Date and time in the page's language. */
export const formatTime = (ms: number | null, lang: string): string =>
  ms ? new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'medium' }).format(ms) : '';

/** The colour of a Slurm state (Ant Design tag colours). */
export function stateColor(state: string): string {
  if (state === 'RUNNING' || state === 'COMPLETING') return 'processing';
  if (state === 'PENDING' || state === 'REQUEUED' || state === 'SUSPENDED') return 'warning';
  if (state === 'COMPLETED') return 'success';
  if (state === 'CANCELLED') return 'default';
  return 'error';
}

/** The Slurm states the history filter offers (sacct's names). */
export const FINISHED_STATES = [
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TIMEOUT',
  'OUT_OF_MEMORY',
  'NODE_FAIL',
  'PREEMPTED',
] as const;

/** The folder of a cluster path (`/a/b/c.sh` → `/a/b`). */
export const folderOf = (p: string): string => p.replace(/\/[^/]*$/, '') || '/';
