import { CommonCodes, PortalCodes } from '@hpc/contracts';
import * as client from 'openid-client';
import type { KvStore } from '@hpc/server-kit';
import { AppError } from '@hpc/server-kit';
import type { PortalConfig } from '../../../config';
import type { UserService } from './user.service';
import type { UserRow } from '../data/user.repository';
import { PortalText } from '../../../messages';

/** How long a started single sign-on may take before its state is forgotten. */
const ATTEMPT_TTL_MS = 10 * 60_000;

interface Attempt {
  verifier: string;
  nonce: string;
  redirectTo: string;
  callbackUrl: string;
}

const isLoopback = (host: string) => ['localhost', '127.0.0.1', '[::1]', '::1'].includes(host);

/**
 * Single sign-on by OpenID Connect (authorization code + PKCE + nonce, client secret at the token endpoint), when
 * OIDC_ISSUER/OIDC_CLIENT_ID/OIDC_CLIENT_SECRET are set. The attempt (PKCE verifier, nonce, where to land) lives in
 * the KvStore under its `state`, so any instance can finish it; a cookie holding the state binds it to the browser
 * that started it. The user's profile is read from the userinfo endpoint and a portal user created on first login.
 */
export function createOidcService(deps: { config: PortalConfig; kv: KvStore; users: UserService }) {
  const { config, kv, users } = deps;
  const enabled = Boolean(config.OIDC_ISSUER && config.OIDC_CLIENT_ID);
  let discovered: Promise<client.Configuration> | undefined;

  if (enabled) {
    const issuer = new URL(config.OIDC_ISSUER);
    if (issuer.protocol !== 'https:' && !isLoopback(issuer.hostname)) {
      throw new Error(
        `OIDC_ISSUER must be https (plain http is allowed on loopback only): ${config.OIDC_ISSUER}`,
      );
    }
  }

  const configuration = (): Promise<client.Configuration> => {
    discovered ??= client
      .discovery(
        new URL(config.OIDC_ISSUER),
        config.OIDC_CLIENT_ID,
        undefined,
        client.ClientSecretPost(config.OIDC_CLIENT_SECRET),
        new URL(config.OIDC_ISSUER).protocol === 'http:'
          ? { execute: [client.allowInsecureRequests] }
          : undefined,
      )
      .catch((e: unknown) => {
        // Forget the failure so the next attempt discovers again (the provider may just have been down).
        discovered = undefined;
        throw new AppError(CommonCodes.authServer, PortalText.ssoProviderUnreachable((e as Error).message));
      });
    return discovered;
  };

  return {
    enabled,

    /** The provider's authorization URL for a new attempt, and the state to keep in the browser's cookie. */
    async begin(redirectTo: string, callbackUrl: string): Promise<{ url: string; state: string }> {
      if (!enabled) throw new AppError(PortalCodes.notFound, PortalText.ssoNotConfigured);
      const oidc = await configuration();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const attempt: Attempt = { verifier, nonce, redirectTo, callbackUrl };
      await kv.set(`oidc:${state}`, JSON.stringify(attempt), ATTEMPT_TTL_MS);
      const url = client.buildAuthorizationUrl(oidc, {
        redirect_uri: callbackUrl,
        scope: config.OIDC_SCOPES,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url: url.href, state };
    },

    /**
     * Finishes an attempt from the callback's query string: checks the state against the browser's cookie,
     * exchanges the code, reads the profile, and returns the portal user (created on first login).
     */
    async complete(
      query: URLSearchParams,
      stateCookie: string | undefined,
    ): Promise<{ user: UserRow; redirectTo: string }> {
      const state = query.get('state');
      if (!state || state !== stateCookie) throw new AppError(PortalCodes.csrf, PortalText.ssoStateMismatch);
      const key = `oidc:${state}`;
      const raw = await kv.get(key);
      await kv.del(key);
      if (!raw) throw new AppError(PortalCodes.unauthorized, PortalText.ssoExpired);
      const attempt = JSON.parse(raw) as Attempt;
      const error = query.get('error');
      // The provider's own words, relayed as it said them (in its language, not ours).
      if (error) throw new AppError(PortalCodes.loginFailed, query.get('error_description') ?? error);

      const oidc = await configuration();
      const currentUrl = new URL(attempt.callbackUrl);
      currentUrl.search = query.toString();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(oidc, currentUrl, {
          pkceCodeVerifier: attempt.verifier,
          expectedState: state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        });
      } catch (e) {
        throw new AppError(PortalCodes.loginFailed, PortalText.ssoFailed((e as Error).message));
      }
      const idClaims = tokens.claims()!;
      // Providers put the profile in the userinfo answer (OpenID Connect Core §5.4); the ID token is the fallback.
      const info: Record<string, unknown> = await client
        .fetchUserInfo(oidc, tokens.access_token, idClaims.sub)
        .catch(() => ({ ...idClaims }));
      const text = (k: string) => {
        const v = info[k];
        return typeof v === 'string' ? v : '';
      };
      const email = text('email');
      const user = await users.findOrCreateOidc(
        { issuer: oidc.serverMetadata().issuer, subject: idClaims.sub },
        {
          preferredName: text(config.OIDC_USERNAME_CLAIM) || email.split('@')[0] || '',
          fullName: text('name'),
          email,
        },
      );
      if (user.status !== 'active') throw new AppError(PortalCodes.loginFailed, PortalText.userDisabled);
      return { user, redirectTo: attempt.redirectTo };
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
