import http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import { ApiClient, efileApi, type EfileCalls } from '@hpc/api-client';
import { OWNER_RIGHTS_PATH } from '@hpc/contracts';
import { signClusterToken } from '@hpc/server-kit';

export interface StandInPortal {
  /** For efile's EFILE_JWKS_URL. */
  jwksUrl: string;
  /** A cluster token (audience `bench`) of the compute user `cun` with home `home`. */
  token: string;
  close(): void;
}

/**
 * What an efile started on its own needs of the portal: the JWKS its tokens are checked against, the owner-rights
 * answer a share or Linux command asks for on every use, and one token for the user. The benches start efile
 * without a portal; this stands in for it.
 */
export async function startStandInPortal(cun: string, home: string): Promise<StandInPortal> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA' }] };
  const rights = { cun, home, paths: [], st: 'Normal', exp_acct: null };
  const server = http
    .createServer((q, r) =>
      r.end(
        JSON.stringify(
          q.url?.startsWith(OWNER_RIGHTS_PATH) ? { code: '0', msg: 'success', data: rights } : jwks,
        ),
      ),
    )
    .listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const token = await signClusterToken(privateKey, 'k1', {
    sub: 'bench',
    aud: 'bench',
    cun,
    home,
    paths: [],
    st: 'Normal',
    exp_acct: null,
  });
  const { port } = server.address() as { port: number };
  return { jwksUrl: `http://127.0.0.1:${port}/`, token, close: () => server.close() };
}

/**
 * The typed calls of an efile instance at `base` with a cluster token (the stand-in's, or one of a real login), as
 * the web makes them. The benches warm up and read Linux commands through it; what they measure (curl, the chunk
 * client, raw route loops) stays raw HTTP.
 */
export function efileCalls(base: string, token: string, clusterId = 'bench'): EfileCalls {
  return efileApi(new ApiClient({ baseUrl: base, headers: () => ({ token }) }), clusterId);
}

/** The smallest listing of `home`: the first authenticated call (JWKS fetched, a unix-mode worker started). */
export const warmUp = (efile: EfileCalls, home: string) =>
  efile.list({ path: home, pageNum: 1, pageSize: 1, sort: 'name', order: 'asc' });
