import { expect } from 'vitest';
import type { ServerText } from '@hpc/contracts';

/** One entry of a server package's message catalogue (`src/messages.ts`): a pair, or a function making one. */
type Entry = ServerText | ((...values: never[]) => ServerText);

const HAN = /[\u4e00-\u9fff]/;

/**
 * Checks every entry of a message catalogue: English without Chinese, Chinese with it and not a copy of the
 * English, and each value a function is given appearing in both texts (a text that drops the folder it names, or
 * a function that computes with its values rather than saying them, fails here).
 */
export function expectBilingual(catalogue: Record<string, Entry>): void {
  const entries = Object.entries(catalogue);
  expect(entries.length).toBeGreaterThan(0);
  for (const [name, entry] of entries) {
    const values = Array.from({ length: typeof entry === 'function' ? entry.length : 0 }, (_, i) => `⟦${i}⟧`);
    const text = typeof entry === 'function' ? (entry as (...v: string[]) => ServerText)(...values) : entry;
    expect(text.en, `${name}: English`).toBeTruthy();
    expect(HAN.test(text.en), `${name}: no Chinese in the English "${text.en}"`).toBe(false);
    expect(HAN.test(text.zh), `${name}: Chinese in "${text.zh}"`).toBe(true);
    for (const v of values) {
      expect(text.en, `${name}: ${v} in the English`).toContain(v);
      expect(text.zh, `${name}: ${v} in the Chinese`).toContain(v);
    }
  }
}
