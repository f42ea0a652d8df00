import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { knownHostsLine, type LoginNode } from './login-nodes';

const run = promisify(execFile);

export interface SshLoginSettings {
  sshBin: string;
  keygenBin: string;
  /** The CA's private key (the service's; its public half is in the login nodes' TrustedUserCAKeys). */
  caKey: string;
  /** The service's own 0700 folder for the keys of handshakes in progress. */
  runDir: string;
  certMinutes: number;
  connectTimeoutS: number;
}

export interface SshLoginRequest {
  /** The cluster user name: the certificate's only principal and the login name. */
  cun: string;
  node: LoginNode;
  /** Names the certificate (`-I`), found again in sshd's log beside the session's start line. */
  keyId: string;
  /** A folder to `cd` into before the login shell starts (E-File's "open a shell here"). */
  cwd?: string;
  /** `ssh-keygen -V` validity; only tests pass anything but the default. */
  validity?: string;
}

/** What `ssh` is started with: the program, its arguments, and the folder to remove once the handshake is done. */
export interface SshLogin {
  file: string;
  args: string[];
  keyDir: string;
  /** Removes the key folder (idempotent): after the handshake, on exit, and at the latest after the deadline. */
  dispose(): void;
}

/** A POSIX shell word: 'it'\''s'. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Makes the service's key folder (0700, owned by the service), once. */
export function prepareRunDir(runDir: string): void {
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(runDir, 0o700);
}

/**
 * Prepares one login (issue 26 §1): a fresh ed25519 key pair in a new 0700 folder of the service, a certificate of the
 * CA for it valid a few minutes with the cluster user name as its only principal, and a known_hosts file with the
 * node's pinned key (or host CA) only. Nothing is written anywhere else, least of all into the user's home.
 *
 * The folder is removed by ssh itself right after authentication (`LocalCommand`, which OpenSSH runs once the
 * connection is made, before the session), and by `dispose()` on exit or failure.
 */
export async function prepareLogin(s: SshLoginSettings, req: SshLoginRequest): Promise<SshLogin> {
  if (!/^[a-z_][a-z0-9_.-]{0,31}$/i.test(req.cun)) throw new Error('not a user name');
  const keyDir = fs.mkdtempSync(path.join(s.runDir, 'k-'));
  fs.chmodSync(keyDir, 0o700);
  const dispose = () => fs.rmSync(keyDir, { recursive: true, force: true });
  try {
    const key = path.join(keyDir, 'id');
    await run(s.keygenBin, ['-q', '-t', 'ed25519', '-N', '', '-C', req.keyId, '-f', key]);
    // A minute of slack before now for a login node whose clock is a little behind.
    const validity = req.validity ?? `-1m:+${s.certMinutes}m`;
    await run(s.keygenBin, [
      '-q',
      '-s',
      s.caKey,
      '-I',
      req.keyId,
      '-n',
      req.cun,
      '-V',
      validity,
      // A terminal and nothing else: no port, agent or X11 forwarding, no ~/.ssh/rc, whatever sshd would allow.
      '-O',
      'clear',
      '-O',
      'permit-pty',
      `${key}.pub`,
    ]);
    const knownHosts = path.join(keyDir, 'known_hosts');
    fs.writeFileSync(knownHosts, knownHostsLine(req.node), { mode: 0o600 });
    // A login shell in the folder asked for (a folder that is gone leaves the shell in the home, with cd's message).
    const remote = req.cwd ? [`cd -- ${shellQuote(req.cwd)}; exec "$SHELL" -l`] : [];
    const args = [
      '-F',
      '/dev/null',
      '-i',
      key,
      '-o',
      `CertificateFile=${key}-cert.pub`,
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'IdentityAgent=none',
      '-o',
      'PubkeyAuthentication=yes',
      '-o',
      'PasswordAuthentication=no',
      '-o',
      'KbdInteractiveAuthentication=no',
      '-o',
      'HostbasedAuthentication=no',
      '-o',
      'GSSAPIAuthentication=no',
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      `UserKnownHostsFile=${knownHosts}`,
      '-o',
      'GlobalKnownHostsFile=/dev/null',
      '-o',
      'UpdateHostKeys=no',
      '-o',
      'CheckHostIP=no',
      '-o',
      'ForwardAgent=no',
      '-o',
      'ForwardX11=no',
      '-o',
      'ClearAllForwardings=yes',
      // The page's keys are the user's, not the ssh client's, which runs as the service on the portal's host: no
      // `~` escape (`~C` would add forwardings from that host where the client still allows it, `~.` and `~^Z`
      // act on the client).
      '-o',
      'EscapeChar=none',
      '-o',
      'ControlMaster=no',
      '-o',
      'ControlPath=none',
      '-o',
      `ConnectTimeout=${s.connectTimeoutS}`,
      '-o',
      'ServerAliveInterval=30',
      '-o',
      'LogLevel=ERROR',
      // The shell's locale (the pty's LANG, ESHELL_LANG): a UTF-8 one, or readline takes the bytes of a Chinese
      // character for Meta keys. Login nodes accept it with `AcceptEnv LANG LC_*` (Debian's and RHEL's default).
      '-o',
      'SendEnv=LANG',
      '-o',
      'PermitLocalCommand=yes',
      // %-tokens are expanded in LocalCommand: the folder's name has none (mkdtemp's letters and digits).
      '-o',
      `LocalCommand=rm -rf -- ${shellQuote(keyDir)}`,
      '-t',
      '-p',
      String(req.node.port),
      '-l',
      req.cun,
      req.node.host,
      ...remote,
    ];
    return { file: s.sshBin, args, keyDir, dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}
