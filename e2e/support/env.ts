import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { portalUnderTest, type RunningPortal } from './portal';

export interface PortalEnv {
  portal: RunningPortal;
  browser: Browser;
  /** A scratch folder on this machine (files to upload, downloads). */
  work: string;
}

/**
 * The built portal under test, a browser and a scratch folder for one describe block, closed and removed after it:
 * how every browser test file starts.
 */
export function usePortalEnv(name: string): PortalEnv {
  const env = {} as PortalEnv;
  beforeAll(async () => {
    env.portal = await portalUnderTest();
    env.browser = await launchBrowser();
    env.work = fs.mkdtempSync(path.join(os.tmpdir(), `hpc-e2e-${name}-`));
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.portal?.stop();
    if (env.work) fs.rmSync(env.work, { recursive: true, force: true });
  });
  return env;
}
