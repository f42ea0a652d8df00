/**
 * The shell's `efile` command and the E-Shell page (issue 26 §2): `efile open .` and `efile get results.csv`, typed in
 * the browser shell, print a private escape sequence that the page turns into a request the user confirms.
 *
 *   ESC ] 7337 ; hpc-efile ; <verb> ; <path as lowercase hex of its UTF-8 bytes> BEL
 *
 * `verb` is `open` (a folder in E-File) or `get` (a download through the page). The sequence carries a path only,
 * never an address: the page builds E-File's own address and call from it, for the tab's cluster and with the user's
 * own token, so a program in the shell (or `cat` of a hostile file: anything can print the sequence) cannot make the
 * page open a URL or reach beyond the user's E-File. The command is `apps/eshell/bin/efile` (POSIX sh; installed on
 * login nodes at `EFILE_COMMAND_PATH`); docs/DECISIONS.md "E-Shell: `efile` in the shell" says why it is so.
 */
import { UNSHOWABLE } from './limits';

/**
 * The OSC number of the sequence: no terminal in wide use interprets it (xterm.js, VTE, iTerm2, kitty, WezTerm
 * ignore it), but private tools use it too, so the page acts only on the tag below.
 */
export const EFILE_OSC = 7337;
/** The sequence's first field: a number alone could be another program's. */
export const EFILE_OSC_TAG = 'hpc-efile';
/** Where operators install the command on a login node (and `npm run start:cluster` on the demo one). */
export const EFILE_COMMAND_DIR = '/usr/local/lib/hpc-portal/bin';
export const EFILE_COMMAND_PATH = `${EFILE_COMMAND_DIR}/efile`;

export const EFILE_VERBS = ['open', 'get'] as const;
export type EfileShellVerb = (typeof EFILE_VERBS)[number];
export interface EfileShellRequest {
  verb: EfileShellVerb;
  /** An absolute cluster path. */
  path: string;
}

/** E-File's longest path (contracts' cluster paths): the command refuses longer ones, the page too. */
export const EFILE_PATH_MAX = 4096;
const HEX_MAX = 2 * 4 * EFILE_PATH_MAX;
const DATA_MAX = EFILE_OSC_TAG.length + 2 + 4 + HEX_MAX;

/**
 * The request of one sequence's data (what follows `7337;`), or null for anything else: another tag, another verb,
 * a path that is not absolute, not hex, not UTF-8, too long, with `.`/`..` segments or with characters that cannot
 * be shown plainly. Strict on purpose: the command prints exactly this form.
 */
export function parseEfileRequest(data: string): EfileShellRequest | null {
  if (typeof data !== 'string' || data.length > DATA_MAX) return null;
  const parts = data.split(';');
  if (parts.length !== 3) return null;
  const [tag, verb, hex] = parts as [string, string, string];
  if (tag !== EFILE_OSC_TAG || !(EFILE_VERBS as readonly string[]).includes(verb)) return null;
  if (hex.length === 0 || hex.length > HEX_MAX || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex))
    return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  let path: string;
  try {
    path = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
  if (!path.startsWith('/') || path.length > EFILE_PATH_MAX || UNSHOWABLE.test(path)) return null;
  if (path.split('/').some((s) => s === '.' || s === '..')) return null;
  return { verb: verb as EfileShellVerb, path };
}

/** The sequence the command prints for a request (tests and benches; the command itself is sh). */
export function efileSequence(req: EfileShellRequest): string {
  const hex = Array.from(new TextEncoder().encode(req.path), (b) => b.toString(16).padStart(2, '0')).join('');
  return `\x1b]${EFILE_OSC};${EFILE_OSC_TAG};${req.verb};${hex}\x07`;
}
