import { describe, expect, it } from 'vitest';
import { THEME_NAMES } from '../../../shared/preferences/themes';
import { TERMINAL_THEMES } from './terminal-theme';

/** WCAG's relative luminance of a #rrggbb colour, and the contrast ratio of two. */
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe("the terminal's colours follow the portal's themes (issue 26 §2)", () => {
  it('has colours for every theme, dark on the dark theme and light on the light one', () => {
    for (const name of THEME_NAMES) expect(TERMINAL_THEMES[name], name).toBeDefined();
    expect(luminance(TERMINAL_THEMES.dark_blue.background!)).toBeLessThan(0.1);
    expect(luminance(TERMINAL_THEMES.light_blue.background!)).toBeGreaterThan(0.8);
  });

  it('keeps text and the colours programs print readable on each background (WCAG AA, 4.5:1)', () => {
    for (const name of THEME_NAMES) {
      const t = TERMINAL_THEMES[name];
      expect(contrast(t.foreground!, t.background!), `${name} foreground`).toBeGreaterThanOrEqual(4.5);
      // The colours a theme sets itself (ls and git use blue and yellow; white on a light background).
      for (const key of ['blue', 'brightBlue', 'yellow', 'brightYellow', 'white', 'brightWhite'] as const) {
        const c = t[key];
        if (c) expect(contrast(c, t.background!), `${name} ${key}`).toBeGreaterThanOrEqual(3);
      }
    }
  });
});
