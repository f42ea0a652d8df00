/** Small readers of Slurm's value formats, shared by the parsers of each command's output. */

/** Slurm's INFINITE/NO_VAL sentinels (uint32 and uint16) in JSON numbers. */
const SENTINELS = new Set([4294967295, 4294967294, 65535, 65534]);

/** A JSON number Slurm may have left null or set to a sentinel: the number, or null. */
export function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v) && !SENTINELS.has(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return num(Number(v));
  return null;
}

/** Seconds since the epoch → ms; 0 and sentinels (not happened yet) → null. */
export function msOf(seconds: unknown): number | null {
  const s = num(seconds);
  return s && s > 0 ? s * 1000 : null;
}

const PENDING_LIKE = new Set(['PENDING', 'REQUEUED']);
/** A job that has not started (again): it has no nodes, and its times are forecasts. */
export const isPendingLike = (state: string): boolean => PENDING_LIKE.has(state);

/**
 * A job's start and end as facts (ms): while it is pending Slurm shows the scheduler's forecasts of both, and while
 * it runs the end is its time limit's, not an end: those are left out (null). Every reader of a job applies this.
 */
export function factTimes(
  state: string,
  start: number | null,
  end: number | null,
): { startTime: number | null; endTime: number | null } {
  const pending = isPendingLike(state);
  return { startTime: pending ? null : start, endTime: pending || state === 'RUNNING' ? null : end };
}

/**
 * A Slurm duration (`[days-]hours:minutes:seconds`, `minutes`, `minutes:seconds`, `hours:minutes:seconds`,
 * `UNLIMITED`, `INFINITE`, `N/A`) in whole minutes, rounded up; null for unlimited or unknown.
 */
export function minutesOf(text: string | undefined): number | null {
  if (!text || /^(UNLIMITED|INFINITE|N\/A|NONE|Partition_Limit)$/i.test(text)) return null;
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const [, d, a, b, c] = m;
  let seconds: number;
  if (d !== undefined) seconds = Number(d) * 86400 + Number(a) * 3600 + Number(b ?? 0) * 60 + Number(c ?? 0);
  else if (c !== undefined) seconds = Number(a) * 3600 + Number(b) * 60 + Number(c);
  else if (b !== undefined) seconds = Number(a) * 60 + Number(b);
  else seconds = Number(a) * 60;
  return Math.ceil(seconds / 60);
}

/** `cpu=2,mem=100M,node=1,gres/gpu=2` → a map (values as Slurm prints them). */
export function tresMap(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (text ?? '').split(',')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i), part.slice(i + 1));
  }
  return out;
}

/** GPUs in a TRES string: `gres/gpu=2` (or the sum of typed `gres/gpu:a100=2` entries when untyped is absent). */
export function gpusOfTres(text: string | undefined): number {
  const tres = tresMap(text);
  const plain = tres.get('gres/gpu');
  if (plain !== undefined) return Number.parseInt(plain, 10) || 0;
  let n = 0;
  for (const [k, v] of tres) if (k.startsWith('gres/gpu:')) n += Number.parseInt(v, 10) || 0;
  return n;
}

/** GPUs in a GRES string of a node (`gpu:4`, `gpu:a100:4(S:0-1)`, `gpu:a100:2(IDX:0-1),gpu:v100:1(IDX:2)`). */
export function gpusOfGres(text: string | undefined): number {
  let n = 0;
  for (const part of (text ?? '').split(/,(?![^(]*\))/)) {
    const m = /^gpu(?::[^:(]+)?:(\d+)/.exec(part.trim());
    if (m) n += Number(m[1]);
  }
  return n;
}

/** A memory amount as Slurm prints it (`100M`, `24105M`, `2G`, `1T`, `512K`) in MiB. */
export function mbOf(text: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)/.exec(text ?? '');
  if (!m) return 0;
  const factor = { '': 1, K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024 }[m[2] as '' | 'K' | 'M' | 'G' | 'T'];
  return Math.round(Number(m[1]) * factor);
}

/**
 * One line of `scontrol show … -o`: `Key=value Key=value …`. A value may hold spaces (a job name, a path), so a key
 * starts only where a space is followed by a word and `=`; what is between belongs to the previous value.
 */
export function keyValues(line: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /(?:^|\s)([A-Za-z][\w/:.]*)=/g;
  const keys: { key: string; start: number; valueStart: number }[] = [];
  for (let m = re.exec(line); m; m = re.exec(line)) {
    keys.push({ key: m[1]!, start: m.index, valueStart: re.lastIndex });
  }
  keys.forEach((k, i) => {
    const end = i + 1 < keys.length ? keys[i + 1]!.start : line.length;
    out.set(k.key, line.slice(k.valueStart, end).trim());
  });
  return out;
}

/** `(null)`, `N/A`, `Unknown`, `None` → ''. */
export const textOf = (v: string | undefined): string =>
  !v || /^\((null)\)$|^N\/A$|^Unknown$|^None$/.test(v) ? '' : v;
