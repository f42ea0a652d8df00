/** A login node the service may open shells on, with the host key it must present (issue 26 §1). */
export interface LoginNode {
  /** As `sshAddressList` names it: host or host:port. */
  address: string;
  host: string;
  port: number;
  /** `ssh-ed25519 AAAA…` (the pinned key) or `@cert-authority ssh-ed25519 AAAA…` (a host CA). */
  hostKey: string;
}

const KEY =
  /^(@cert-authority\s+)?(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|rsa-sha2-(256|512))\s+[A-Za-z0-9+/=]+$/;

/** host, host:port, [v6]:port. */
export function splitAddress(address: string): { host: string; port: number } {
  const v6 = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(address);
  const m = v6 ?? /^([A-Za-z0-9_.-]+)(?::(\d+))?$/.exec(address);
  if (!m) throw new Error(`not a login node address: ${address}`);
  const port = m[2] ? Number(m[2]) : 22;
  if (!(port > 0 && port < 65536)) throw new Error(`bad port in ${address}`);
  return { host: m[1]!, port };
}

/** ESHELL_LOGIN_NODES: a JSON list of `{ address, hostKey }`; anything malformed stops the start. */
export function parseLoginNodes(json: string): LoginNode[] {
  const list = JSON.parse(json || '[]') as unknown;
  if (!Array.isArray(list)) throw new Error('ESHELL_LOGIN_NODES: a JSON list');
  return list.map((item: unknown) => {
    const { address, hostKey } = (item ?? {}) as { address?: unknown; hostKey?: unknown };
    if (typeof address !== 'string' || typeof hostKey !== 'string')
      throw new Error('ESHELL_LOGIN_NODES: each entry needs address and hostKey');
    const key = hostKey
      .trim()
      .split(/\s+/)
      .slice(0, hostKey.trim().startsWith('@') ? 3 : 2)
      .join(' ');
    if (!KEY.test(key)) throw new Error(`ESHELL_LOGIN_NODES: bad hostKey for ${address}`);
    return { address, ...splitAddress(address), hostKey: key };
  });
}

/** The one known_hosts line ssh checks the node against (`UserKnownHostsFile`, nothing else). */
export function knownHostsLine(node: LoginNode): string {
  const name = node.port === 22 ? node.host : `[${node.host}]:${node.port}`;
  return node.hostKey.startsWith('@cert-authority')
    ? `@cert-authority ${name} ${node.hostKey.replace(/^@cert-authority\s+/, '')}\n`
    : `${name} ${node.hostKey}\n`;
}
