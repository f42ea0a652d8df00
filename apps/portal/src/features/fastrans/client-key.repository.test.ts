import { describe, expect, it } from 'vitest';
import { testDbTargets } from '@hpc/server-kit/testing';
import { usePortal } from '../identity/identity.test-fixture';
import { createClientKeyRepository } from './client-key.repository';

describe.each(testDbTargets())('fast-transfer client key generations on $name', (target) => {
  const portal = usePortal(target);
  const userId = async (username: string) =>
    (
      await portal.deps.db
        .selectFrom('portal_user')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  it('starts at 0; 20 revocations at once move it by 20, each answered with its own generation', async () => {
    const keys = createClientKeyRepository(portal.deps.db);
    const demo = await userId('demo');
    const lisi = await userId('lisi');
    expect(await keys.generationOf(demo)).toBe(0);
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => keys.advance(demo, 1000 + i)));
    expect([...got].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await keys.generationOf(demo)).toBe(20);
    // Another user's key does not move.
    expect(await keys.generationOf(lisi)).toBe(0);
  });
});
