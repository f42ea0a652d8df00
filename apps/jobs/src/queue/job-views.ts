import type { JobHistoryEntry, JobSummary, Partition } from '@hpc/contracts';
import { PENDING_STATES, RUNNING_STATES, type ClusterInfo, type QueueJob } from '../scheduler/scheduler';

/** Seconds a job has run: from its times (the queue) or as accounting reported them. */
export function elapsedOf(j: QueueJob, now: number): number {
  if (j.elapsedSeconds !== undefined) return j.elapsedSeconds;
  if (!j.startTime) return 0;
  const end = j.endTime ?? (RUNNING_STATES.has(j.state) ? now : j.startTime);
  return Math.max(0, Math.floor((end - j.startTime) / 1000));
}

/** A job as the lists show it. */
export const summaryOf = (j: QueueJob, now: number): JobSummary => ({
  jobId: j.jobId,
  name: j.name,
  state: j.state,
  reason: j.reason,
  user: j.user,
  account: j.account,
  partition: j.partition,
  qos: j.qos,
  nodeList: j.nodeList,
  nodes: j.nodes,
  cpus: j.cpus,
  gpus: j.gpus,
  submitTime: j.submitTime,
  startTime: j.startTime,
  endTime: j.endTime,
  timeLimitMinutes: j.timeLimitMinutes,
  elapsedSeconds: elapsedOf(j, now),
  workDir: j.workDir,
});

export const historyEntryOf = (j: QueueJob, now: number): JobHistoryEntry => ({
  ...summaryOf(j, now),
  exitCode: j.exitCode,
});

export const isRunning = (j: QueueJob) => RUNNING_STATES.has(j.state);
export const isPending = (j: QueueJob) => PENDING_STATES.has(j.state);

/** The partitions with their node, CPU and GPU counts, from the poller's reading of the cluster. */
export function partitionsOf(cluster: ClusterInfo | null): Partition[] {
  if (!cluster) return [];
  return cluster.partitions.map((p) => {
    const nodes = cluster.nodes.filter((n) => n.partitions.includes(p.name));
    const idle = nodes.filter((n) => !n.down && n.allocCpus === 0 && n.allocGpus === 0).length;
    const down = nodes.filter((n) => n.down).length;
    const qos = p.allowQos.includes('ALL') ? cluster.qos : p.allowQos;
    return {
      name: p.name,
      isDefault: p.isDefault,
      state: p.state,
      maxTimeMinutes: p.maxTimeMinutes,
      defaultTimeMinutes: p.defaultTimeMinutes,
      maxNodes: p.maxNodes,
      qos,
      gres: [
        ...new Set(
          nodes
            .flatMap((n) => (n.gres ? n.gres.split(/,(?![^(]*\))/) : []))
            .map((g) => g.replace(/\(.*\)$/, '')),
        ),
      ],
      nodes: { total: nodes.length, idle, allocated: nodes.length - idle - down, down },
      cpus: { total: sum(nodes.map((n) => n.cpus)), allocated: sum(nodes.map((n) => n.allocCpus)) },
      gpus: { total: sum(nodes.map((n) => n.gpus)), allocated: sum(nodes.map((n) => n.allocGpus)) },
      maxMemoryMb: Math.max(0, ...nodes.map((n) => n.memoryMb)),
      maxCpusPerNode: Math.max(0, ...nodes.map((n) => n.cpus)),
    };
  });
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
