import {
  createClusterTokenVerifier,
  openRevocationStore,
  type ClusterTokenVerifier,
  type RevocationStore,
  type VerifierOptions,
} from '@hpc/server-kit';
import { portalOwnerRights, type OwnerRightsLookup } from './owner-rights';

/** Where a per-cluster service finds its portal: its settings (`<SERVICE>_JWKS_URL` and the like). */
export interface PortalSettings {
  clusterId: string;
  /** The portal's JWKS over HTTP; not used when the keys are given in-process. */
  jwksUrl: string;
  /** The portal's address for the rights lookup; empty: the JWKS address's origin. */
  portalUrl: string;
  /** The secret of the portal's service calls; empty: the rights are not asked. */
  serviceSecret: string;
  /** The portal's revocations live there; empty: this process's memory. */
  redisUrl: string;
}

/** What the all-in-one and tests give in-process instead of reaching the portal. */
export interface PortalTrustOptions {
  /** The portal's public keys in-process (all-in-one, tests); otherwise the JWKS URL is used. */
  jwks?: VerifierOptions['jwks'];
  /** The portal's revocation store in-process (all-in-one, tests); otherwise REDIS_URL's, or memory. */
  revocations?: RevocationStore;
  /** The portal's rights lookup in-process (all-in-one, tests); otherwise asked over HTTP with the service secret. */
  ownerRights?: OwnerRightsLookup;
}

/** What a per-cluster service trusts the portal for: its tokens, its revocations, the user's rights of the moment. */
export interface PortalTrust {
  verifier: ClusterTokenVerifier;
  /** Null when the portal cannot be asked (no service secret or no address): the service decides what that means. */
  ownerRights: OwnerRightsLookup | null;
  revocations: RevocationStore;
  /** Closes the revocation store this opened (not one given in-process). */
  close(): Promise<void>;
}

/** The portal as efile, the job service and E-Shell each reach it, from their settings or in-process. */
export function openPortalTrust(settings: PortalSettings, opts: PortalTrustOptions = {}): PortalTrust {
  const { clusterId, jwksUrl, serviceSecret } = settings;
  const verifier = createClusterTokenVerifier(
    opts.jwks ? { clusterId, jwks: opts.jwks } : { clusterId, jwksUrl },
  );
  const portalUrl = settings.portalUrl || (jwksUrl ? new URL(jwksUrl).origin : '');
  const ownerRights =
    opts.ownerRights ??
    (serviceSecret && portalUrl ? portalOwnerRights(portalUrl, serviceSecret, clusterId) : null);
  const own = opts.revocations ? null : openRevocationStore(settings.redisUrl || undefined);
  return {
    verifier,
    ownerRights,
    revocations: opts.revocations ?? own!.store,
    close: async () => {
      await own?.close();
    },
  };
}
