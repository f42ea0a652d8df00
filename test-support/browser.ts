import { chromium, type Browser } from 'playwright-core';

/**
 * The system Chromium, headless, with everything that talks to the internet switched off: the browser of the e2e
 * tests and of the benches that measure pages (CHROMIUM_PATH points to another one). `extraArgs`: a test's own
 * switches (e.g. an address space override).
 */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}
