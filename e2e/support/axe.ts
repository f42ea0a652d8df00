import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core in the page under test. @axe-core/playwright is not installed; it only injects `axe.source` and calls
 * `axe.run`, which is what this does (`addScriptTag` is refused by the portal's CSP, see below).
 */
const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  /** Each offending node: its CSS selector path and axe's summary of what is wrong. */
  nodes: { target: string; summary: string; html: string }[];
}

/** The impacts the portal must never have (issue 13 §5: "No serious or critical violation"). */
export const BLOCKING_IMPACTS = ['serious', 'critical'];

/**
 * Runs axe on the page as it is now (WCAG 2.0/2.1 A and AA plus axe's best practices) and returns the violations
 * of the blocking impacts. `exclude` takes CSS selectors left out of the scan; every use must say why.
 */
export async function axeViolations(page: Page, opts: { exclude?: string[] } = {}): Promise<AxeViolation[]> {
  const injected = await page.evaluate(
    () => typeof (window as unknown as { axe?: unknown }).axe === 'object',
  );
  // Evaluated through the DevTools protocol rather than added as a <script>: the portal's CSP (script-src 'self')
  // rightly refuses inline scripts, and the page is tested with its real headers.
  if (!injected) await page.evaluate(axeSource);
  const found = await page.evaluate(
    async ({ exclude, blocking }) => {
      type AxeResult = {
        violations: {
          id: string;
          impact: string | null;
          help: string;
          helpUrl: string;
          nodes: { target: unknown[]; failureSummary?: string; html: string }[];
        }[];
      };
      const axe = (window as unknown as { axe: { run: (ctx: unknown, o: unknown) => Promise<AxeResult> } })
        .axe;
      const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
      const result = await axe.run(context, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        resultTypes: ['violations'],
      });
      return result.violations
        .filter((v) => v.impact !== null && blocking.includes(v.impact))
        .map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          helpUrl: v.helpUrl,
          nodes: v.nodes.map((n) => ({
            target: n.target.map(String).join(' '),
            summary: n.failureSummary ?? '',
            html: n.html.slice(0, 300),
          })),
        }));
    },
    { exclude: opts.exclude ?? [], blocking: BLOCKING_IMPACTS },
  );
  return found;
}

/**
 * A readable report of violations for an assertion message: rule, impact, how many nodes, and the first few (a
 * colour used by every card repeats on every card).
 */
export function formatViolations(screen: string, violations: AxeViolation[], perRule = 3): string {
  return violations
    .map(
      (v) =>
        `[${screen}] ${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.help}\n` +
        v.nodes
          .slice(0, perRule)
          .map((n) => `    at ${n.target}\n      ${n.html}\n      ${n.summary.replace(/\n/g, ' ')}`)
          .join('\n'),
    )
    .join('\n');
}
