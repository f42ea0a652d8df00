import { startPortal, type RunningPortal } from '../../test-support/built-portal';

export { freePort, startPortal, type RunningPortal } from '../../test-support/built-portal';

/**
 * The portal under test: a running one at E2E_BASE_URL when set (handy while developing), else a fresh built
 * all-in-one started here.
 */
export async function portalUnderTest(): Promise<RunningPortal> {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    // E2E_DATA_DIR: that portal's DATA_DIR, for tests that put files in place or look at them.
    const dataDir = process.env.E2E_DATA_DIR ?? '';
    return { url: external.replace(/\/$/, ''), dataDir, output: () => '', stop: async () => undefined };
  }
  return startPortal();
}
