// Types of scaled-layout.mjs for the TypeScript tests (e2e/scaled) and benchmarks (bench/scaled).
import type { ChildProcess } from 'node:child_process';

export const root: string;
export const NGINX: string;
export const DEMO_CLUSTERS: string[];
export function freePort(): Promise<number>;
export function ensureNginx(): void;
export function readUnit(
  name: string,
  instance?: string,
): { command: string; args: string[]; env: Record<string, string> };
export function renderNginxSite(o: {
  listen: string;
  portals: { port: number }[];
  efiles: { clusterId: string; n: number; port: number }[];
}): string;

export function startNginx(o: {
  runDir: string;
  name: string;
  listen: string;
  portals: { port: number }[];
  efiles: { clusterId: string; n: number; port: number }[];
}): Proc & { url: string };

export interface Proc {
  readonly name: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  child: ChildProcess;
  port: number;
  env: Record<string, string>;
  onOutput?: (text: string) => void;
  output(): string;
  start(): Proc;
  ready(timeoutMs?: number): Promise<Proc>;
  stop(graceMs?: number): Promise<void>;
  kill9(): Promise<void>;
  signal(sig: NodeJS.Signals): void;
  restart(graceMs?: number): Promise<Proc>;
}

export interface EfileProc extends Proc {
  clusterId: string;
  n: number;
  /** The path nginx serves it under, e.g. /efile/11250/1 (what the cluster's efileUrl list names). */
  path: string;
}

export interface Layout {
  /** nginx: http://127.0.0.1:<port> */
  url: string;
  runDir: string;
  dataDir: string;
  portals: Proc[];
  efiles: Record<string, EfileProc[]>;
  nginx: Proc;
  /** Runs the admin CLI against the layout's database. */
  admin(args: string[]): string;
  stop(): Promise<void>;
}

export interface StartScaledOptions {
  databaseUrl: string;
  redisUrl: string;
  port: number;
  host?: string;
  publicUrl?: string;
  runDir?: string;
  portals?: number;
  efilesPerCluster?: number;
  clusters?: string[];
  env?: Record<string, string>;
  clusterEnv?: Record<string, Record<string, string>>;
  quiet?: boolean;
}

export function startScaled(o: StartScaledOptions): Promise<Layout>;
