import type { PortalConfig } from '../config';
import type { PortalDeps } from '../deps';
import type { IdentityServices } from '../features/identity';

/**
 * What a command runs with: the config, and (except for `noDatabase` commands) the portal deps and the same
 * services the routes use.
 */
export interface CommandContext {
  config: PortalConfig;
  deps: PortalDeps;
  services: IdentityServices;
  /** Prints one line of result. */
  out: (line: string) => void;
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | boolean | undefined>;
}

export interface Command {
  /** "user add" */
  name: string;
  usage: string;
  summary: string;
  /** Options taking a value; the others are flags. */
  valueOptions?: string[];
  flagOptions?: string[];
  /** Commands that need no database (the key folder only). */
  noDatabase?: boolean;
  run(ctx: CommandContext, args: ParsedArgs): Promise<void>;
}

/** The positional at `i`, or a usage error naming it. */
export function arg(args: ParsedArgs, i: number, name: string): string {
  const v = args.positionals[i];
  if (v === undefined || v === '') throw new UsageError(`missing <${name}>`);
  return v;
}

export function opt(args: ParsedArgs, name: string): string | undefined {
  const v = args.options[name];
  return typeof v === 'string' ? v : undefined;
}

export class UsageError extends Error {}

/** An amount of yuan with at most two decimals ("non-negative number with two decimals", spec §5). */
export function parseAmount(text: string): number {
  if (!/^-?\d+(\.\d{1,2})?$/.test(text))
    throw new UsageError(`not an amount with at most two decimals: ${text}`);
  return Number(text);
}

/**
 * An end time: "none", a date (YYYY-MM-DD: the end of that day in the server's time zone) or any ISO time; returns
 * ms since the epoch or null.
 */
export function parseEndTime(text: string): number | null {
  if (text === 'none') return null;
  const t = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T23:59:59.999`).getTime() : Date.parse(text);
  if (!Number.isFinite(t)) throw new UsageError(`not a date: ${text} (YYYY-MM-DD, an ISO time, or none)`);
  return t;
}

/** The password from --password, or the first line of standard input with --password-stdin. */
export async function readPassword(args: ParsedArgs): Promise<string | undefined> {
  if (args.options['password-stdin']) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/, 1)[0];
  }
  return opt(args, 'password');
}
