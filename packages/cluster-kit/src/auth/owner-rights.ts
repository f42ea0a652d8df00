import { Value } from 'typebox/value';
import { OWNER_RIGHTS_PATH, OwnerRightsResponse, type OwnerRights, CommonCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { UserScope } from '../paths/path-resolver';
import { ClusterKitText } from '../messages';

/** The current rights of a portal user (by `sub`) on this cluster, or null (unknown, disabled, no compute user). */
export type OwnerRightsLookup = (sub: string) => Promise<OwnerRights | null>;

/**
 * Asks the portal (scaled-out mode): `GET <portal>/api/internal/efile/owner-rights` with the shared service secret.
 * Any failure to get an answer is "1404" (authentication server connection abnormal): what depends on the owner's
 * rights is refused rather than served on stale ones.
 */
export function portalOwnerRights(portalUrl: string, secret: string, clusterId: string): OwnerRightsLookup {
  const base = portalUrl.replace(/\/+$/, '');
  return async (sub) => {
    const url = `${base}${OWNER_RIGHTS_PATH}?${new URLSearchParams({ clusterId, sub }).toString()}`;
    let body: unknown;
    try {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${secret}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      body = await res.json();
    } catch (e) {
      throw new AppError(CommonCodes.authServer, ClusterKitText.portalRightsNoAnswer((e as Error).message));
    }
    if (!Value.Check(OwnerRightsResponse, body) || body.code !== '0')
      throw new AppError(CommonCodes.authServer, ClusterKitText.portalRightsUnexpected);
    return body.data;
  };
}

/** Without a way to ask the portal: every rights check fails closed with "1404". */
export const noOwnerRights: OwnerRightsLookup = async () => {
  throw new AppError(CommonCodes.authServer, ClusterKitText.noPortalRightsCheck);
};

/** The roots of a user with these rights (home first, as in a token; an empty home follows the pattern). */
export const rootsOf = (rights: OwnerRights, homePattern: string): UserScope => ({
  roots: [rights.home || homePattern.replace('{user}', rights.cun), ...rights.paths],
});

/** The four rules of `refusalOf` live beside `OwnerRights` in the contracts: the portal applies them too. */
export { refusalOf } from '@hpc/contracts';
