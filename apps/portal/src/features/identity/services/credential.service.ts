import { credentialId, type IssuedCredential, type RevocationStore } from '@hpc/server-kit';

/**
 * The day tokens and Linux commands issued to a user today, as the user centre lists them, and their revocation
 * (issue 25 §1.4). Both live in the revocation store (the KV store, shared by every portal and cluster service):
 * the portal records the fast-transfer day tokens it signs here (`recordDayToken`); efile records the Linux
 * commands it issues in the same store; a revocation is checked by every cluster service on each use.
 */
export function createCredentialService(deps: { revocations: RevocationStore }) {
  const { revocations } = deps;
  return {
    /** Records a fast-transfer day token the portal just signed (the token itself is not kept: only its hash). */
    recordDayToken: (
      userId: number,
      token: string,
      t: { clusterId: string; expiresAt: number; directory: string; sid: string },
    ) =>
      revocations.recordIssued(String(userId), {
        id: credentialId(token),
        kind: 'fastrans',
        clusterId: t.clusterId,
        issuedAt: Date.now(),
        expiresAt: t.expiresAt,
        detail: t.directory,
        sid: t.sid,
      }),

    list: (userId: number): Promise<IssuedCredential[]> => revocations.issued(String(userId)),

    /** Revokes one of the user's own; false when they have no such credential. */
    revoke: (userId: number, id: string) => revocations.revokeCredential(String(userId), id),
  };
}

export type CredentialService = ReturnType<typeof createCredentialService>;
