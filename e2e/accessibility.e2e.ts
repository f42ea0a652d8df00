import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/axe';
import { newContext, screenshotDir, screenshotter } from './support/browser';
import { usePortalEnv } from './support/env';
import { walkMainScreens } from './support/screens';

/**
 * axe-core on the portal's main screens in both languages (issue 13 §5): no serious or critical violation of
 * WCAG 2.1 A/AA or axe's best practices on any of them. Nothing is excluded from the scan.
 */
describe('accessibility (axe-core)', () => {
  const env = usePortalEnv('a11y');

  for (const language of ['zh-CN', 'en-US'] as const) {
    it(`finds no serious or critical violation on the main screens in ${language}`, async () => {
      const reports: string[] = [];
      const screens: string[] = [];
      const errors = await walkMainScreens({
        browser: env.browser,
        baseUrl: env.portal.url,
        language,
        work: env.work,
        onScreen: async (name, page) => {
          screens.push(name);
          // Every main-menu entry shows at 1440 px (none folded into "…"): see pseudo-locale.e2e.ts.
          expect(await page.locator('.hpc-main-menu .ant-menu-overflow-item-rest:visible').count()).toBe(0);
          await screenshotter(page)(`a11y-${name}`);
          const found = await axeViolations(page);
          if (found.length) reports.push(formatViolations(name, found));
          fs.writeFileSync(path.join(screenshotDir(), `a11y-${name}.json`), JSON.stringify(found, null, 1));
        },
      });
      expect(screens).toHaveLength(16);
      expect(reports.join('\n')).toBe('');
      expect(errors).toEqual([]);
    });
  }

  it('finds no serious or critical violation on the static 404 page an unknown address leads to', async () => {
    const ctx = await newContext(env.browser, env.portal.url);
    const page = await ctx.newPage();
    await page.goto('/no-such-page/at-all');
    await page.locator('main h1').first().waitFor();
    expect(formatViolations('static-404', await axeViolations(page))).toBe('');
    await ctx.close();
  });
});
