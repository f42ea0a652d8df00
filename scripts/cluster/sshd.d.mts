// Types of sshd.mjs for the TypeScript tests (e2e) and the bench.
export function start(o: {
  stateDir: string;
  log: (line: string) => void;
}): Promise<{ env: { ESHELL_CA_KEY: string; ESHELL_LOGIN_NODES: string } }>;
export function stop(o: { stateDir: string }): Promise<void>;
/** Where the shell's `efile` command is installed (contracts' EFILE_COMMAND_PATH). */
export const EFILE_COMMAND: string;
export function installEfileCommand(log: (line: string) => void): void;
/** The sshd_config of a login node trusting the portal's SSH user CA (`more`: lines of the caller's). */
export function sshdConfig(o: {
  port: number;
  hostKey: string;
  pidFile: string;
  caPub: string;
  more?: string[];
}): string;
