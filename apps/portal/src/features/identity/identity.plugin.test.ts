import { describe, expect, it } from 'vitest';
import { testDbTargets } from '@hpc/server-kit/testing';
import { createServer } from '@hpc/server-kit';
import { usePortal } from './identity.test-fixture';
import { identityFeaturePlugin, identityServices } from './identity.plugin';
import { identityServicesOf } from './identity.services';

describe.each(testDbTargets().slice(0, 1))('identity services built once ($name)', (target) => {
  const portal = usePortal(target);

  it('every feature, the seed and the owner-rights lookup share the one set of services of the deps', () => {
    expect(portal.app.identity.services).toBe(identityServicesOf(portal.deps));
    expect(identityServicesOf(portal.deps)).toBe(identityServicesOf(portal.deps));
  });

  it('a feature registered without the identity services is refused at start', async () => {
    const app = createServer({ logLevel: 'silent' });
    await expect(
      app.register(
        identityFeaturePlugin('lonely', async () => undefined),
        { deps: portal.deps },
      ),
    ).rejects.toThrow(/identity-services/);
    await app.close();
    const ok = createServer({ logLevel: 'silent' });
    await ok.register(identityServices, { deps: portal.deps });
    await ok.register(
      identityFeaturePlugin('fine', async () => undefined),
      { deps: portal.deps },
    );
    await expect(ok.ready()).resolves.toBeDefined();
    await ok.close();
  });
});
