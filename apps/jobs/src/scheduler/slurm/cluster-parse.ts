import type { Association, NodeInfo, PartitionInfo } from '../scheduler';
import { gpusOfGres, keyValues, minutesOf, num } from './slurm-values';

interface SinfoNode {
  name?: string;
  state?: string;
  state_flags?: string[];
  cpus?: number;
  alloc_cpus?: number;
  real_memory?: number;
  gres?: string;
  gres_used?: string;
  partitions?: string[];
}

/** Node states in which nothing new can run there. */
const DOWN =
  /^(down|drain|drained|draining|fail|failing|future|unknown|not_responding|power_down|powered_down|maint|reboot)/i;
const DOWN_FLAGS = new Set([
  'DRAIN',
  'DRAINED',
  'DRAINING',
  'FAIL',
  'NOT_RESPONDING',
  'MAINTENANCE',
  'POWERED_DOWN',
]);

/** `sinfo --json`: one entry per node. */
export function parseSinfoJson(text: string): NodeInfo[] {
  const doc = JSON.parse(text) as { nodes?: SinfoNode[] };
  if (!Array.isArray(doc.nodes)) throw new Error('sinfo --json answered without a nodes list');
  return doc.nodes.map((n) => {
    const state = (n.state ?? 'unknown').toLowerCase();
    const flags = n.state_flags ?? [];
    return {
      name: n.name ?? '',
      state,
      down: DOWN.test(state) || flags.some((f) => DOWN_FLAGS.has(f.toUpperCase())),
      cpus: num(n.cpus) ?? 0,
      allocCpus: num(n.alloc_cpus) ?? 0,
      gpus: gpusOfGres(n.gres),
      allocGpus: gpusOfGres(n.gres_used),
      memoryMb: num(n.real_memory) ?? 0,
      gres: n.gres ?? '',
      partitions: n.partitions ?? [],
    };
  });
}

/** `scontrol show partition -o` (22.05 has no JSON for it): one line per partition. */
export function parsePartitions(text: string): PartitionInfo[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('PartitionName='))
    .map((line) => {
      const kv = keyValues(line);
      const maxNodes = kv.get('MaxNodes');
      return {
        name: kv.get('PartitionName') ?? '',
        isDefault: kv.get('Default') === 'YES',
        state: kv.get('State') ?? 'UNKNOWN',
        maxTimeMinutes: minutesOf(kv.get('MaxTime')),
        defaultTimeMinutes: minutesOf(kv.get('DefaultTime')),
        maxNodes: maxNodes && /^\d+$/.test(maxNodes) ? Number(maxNodes) : null,
        allowQos: (kv.get('AllowQos') ?? 'ALL').split(',').filter(Boolean),
        nodeNames: [],
      };
    });
}

/** `sacctmgr -n -P show assoc format=user,account`: the user-level associations (account-level rows dropped). */
export function parseAssociations(text: string): Association[] {
  const out: Association[] = [];
  for (const line of text.split('\n')) {
    const [user, account] = line.trim().split('|');
    if (user && account) out.push({ user, account });
  }
  return out;
}

/** `sacctmgr -n -P show qos format=name`. */
export const parseQos = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
