// Debian's sshd on this machine for the E-Shell (issue 26): the portal's SSH user CA in TrustedUserCAKeys, a host key
// of its own that the shell service pins, listening on 127.0.0.1 (port 2222, or the next free one). The CA key is
// made once into the cluster's state dir (<stateDir>/ssh/ca, root's, 0600) and kept across starts. It also installs
// the shell's `efile` command (apps/eshell/bin/efile) where operators install it on a login node, for users to put on
// their PATH if they choose (docs/OPERATIONS.md "E-Shell").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { alive, installMissing, pidFrom, run, stopPid, waitFor } from './system.mjs';

const SSHD = '/usr/sbin/sshd';
const FIRST_PORT = 2222;
/** contracts' EFILE_COMMAND_PATH: where the page's help tells users the command is. */
export const EFILE_COMMAND = '/usr/local/lib/hpc-portal/bin/efile';
const EFILE_SOURCE = fileURLToPath(new URL('../../apps/eshell/bin/efile', import.meta.url));

/** Installs (or updates) the `efile` command: root's, 0755, in a folder of root's; nothing in any home. */
export function installEfileCommand(log) {
  const text = fs.readFileSync(EFILE_SOURCE);
  const same = fs.existsSync(EFILE_COMMAND) && fs.readFileSync(EFILE_COMMAND).equals(text);
  if (!same) {
    fs.mkdirSync(path.dirname(EFILE_COMMAND), { recursive: true, mode: 0o755 });
    // Written beside and renamed: a shell running the old one never reads half a file.
    const next = `${EFILE_COMMAND}.new`;
    fs.writeFileSync(next, text, { mode: 0o755 });
    fs.chmodSync(next, 0o755);
    fs.renameSync(next, EFILE_COMMAND);
    log(`sshd: installed the shell's efile command at ${EFILE_COMMAND}`);
  }
}

const listening = (port) =>
  new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

async function freePort() {
  for (let port = FIRST_PORT; port < FIRST_PORT + 100; port++) if (!(await listening(port))) return port;
  throw new Error(`no free port for sshd in ${FIRST_PORT}..${FIRST_PORT + 99}`);
}

const keygen = (...args) => run('ssh-keygen', ['-q', ...args]);
const publicLine = (file) => fs.readFileSync(`${file}.pub`, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');

/**
 * The sshd_config of a login node that logs users in with certificates of the portal's SSH user CA (`caPub`) only:
 * no password, no root, no forwarding, on 127.0.0.1:`port`. `more` are lines of the caller's (before LogLevel).
 * The demo's login node here and the E-Shell tests' sshd (apps/eshell/src/eshell.test-fixture.ts) are written by it.
 */
export function sshdConfig({ port, hostKey, pidFile, caPub, more = [] }) {
  return [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${hostKey}`,
    `PidFile ${pidFile}`,
    // The portal's CA: a certificate of it for a user, with the user name as principal, logs that user in.
    `TrustedUserCAKeys ${caPub}`,
    'AuthorizedPrincipalsFile none',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM yes',
    'PermitRootLogin no',
    'AllowAgentForwarding no',
    'AllowTcpForwarding no',
    'X11Forwarding no',
    'PrintMotd no',
    // The shell's locale from the client (the shell service sends LANG), as Debian's own sshd_config does.
    'AcceptEnv LANG LC_*',
    ...more,
    'LogLevel VERBOSE',
    '',
  ].join('\n');
}

/** Starts sshd (a running one of an earlier start is reused); returns the shell service's environment. */
export async function start({ stateDir, log }) {
  installMissing(['openssh-server', 'openssh-client'], log);
  installEfileCommand(log);
  const dir = path.join(stateDir, 'ssh');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const ca = path.join(dir, 'ca');
  const hostKey = path.join(dir, 'ssh_host_ed25519_key');
  if (!fs.existsSync(ca)) keygen('-t', 'ed25519', '-N', '', '-C', 'hpc-portal user CA', '-f', ca);
  if (!fs.existsSync(hostKey))
    keygen('-t', 'ed25519', '-N', '', '-C', 'hpc-portal demo login node', '-f', hostKey);
  const pidFile = path.join(dir, 'sshd.pid');
  const config = path.join(dir, 'sshd_config');
  let port = Number(
    fs.existsSync(path.join(dir, 'port')) ? fs.readFileSync(path.join(dir, 'port'), 'utf8') : 0,
  );
  if (!(alive(pidFrom(pidFile)) && port && (await listening(port)))) {
    port = await freePort();
    fs.writeFileSync(
      config,
      '# Written by scripts/cluster/sshd.mjs (npm run start:cluster): the demo login node of the E-Shell.\n' +
        // scp (SFTP since OpenSSH 9), sftp and rsync to the login node, as on any cluster.
        sshdConfig({ port, hostKey, pidFile, caPub: `${ca}.pub`, more: ['Subsystem sftp internal-sftp'] }),
    );
    fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    execFileSync(SSHD, ['-t', '-f', config]);
    // sshd forks into the background itself and writes its pid file.
    run(SSHD, ['-f', config, '-E', path.join(dir, 'sshd.log')]);
    await waitFor('sshd', () => listening(port), { timeoutMs: 15_000, logFile: path.join(dir, 'sshd.log') });
    fs.writeFileSync(path.join(dir, 'port'), String(port));
    log(`sshd: started on 127.0.0.1:${port} (the E-Shell's login node; CA ${ca}.pub)`);
  } else log(`sshd: running already on 127.0.0.1:${port}`);
  return {
    env: {
      ESHELL_CA_KEY: ca,
      ESHELL_LOGIN_NODES: JSON.stringify([{ address: `127.0.0.1:${port}`, hostKey: publicLine(hostKey) }]),
    },
  };
}

export async function stop({ stateDir }) {
  const pid = pidFrom(path.join(stateDir, 'ssh', 'sshd.pid'));
  if (pid) await stopPid(pid);
}
