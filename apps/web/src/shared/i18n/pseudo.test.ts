import { describe, expect, it } from 'vitest';
import enAntd from 'antd/locale/en_US';
import { isAntdNonText, pseudoLocalise, pseudoTree } from './pseudo';

describe('pseudo-locale', () => {
  it('accents, brackets and pads a text by about 40 %', () => {
    expect(pseudoLocalise('Share link')).toBe('[Ŝĥàŕé ļîñķ ····]');
    expect(pseudoLocalise('OK')).toBe('[ÖĶ ·]');
    expect(pseudoLocalise('')).toBe('');
  });

  it('leaves placeholders for i18next and Ant Design untouched', () => {
    expect(pseudoLocalise('{{count}} items')).toBe('[{{count}} îţéɱš ···]');
    expect(pseudoLocalise('Please enter ${label}')).toBe('[Þļéàšé éñţéŕ ${label} ······]');
    expect(pseudoLocalise('see $t(common.copy)')).toBe('[šéé $t(common.copy) ··]');
  });

  it('keeps non-Latin text readable, only bracketed', () => {
    expect(pseudoLocalise('简体中文')).toBe('[简体中文 ··]');
  });

  it('maps a whole catalogue, keeping its shape and the keys it is told to skip', () => {
    const tree = { a: 'Copy', b: { c: ['One', 'Two'], n: 3, locale: 'en' } };
    expect(pseudoTree(tree)).toEqual({
      a: '[Çöþý ··]',
      b: { c: ['[Öñé ··]', '[Ţŵö ··]'], n: 3, locale: '[éñ ·]' },
    });
    expect(pseudoTree(tree, (k) => k === 'locale').b.locale).toBe('en');
  });

  it("keeps Ant Design's locale name and date formats, and translates its texts", () => {
    const pseudo = pseudoTree(enAntd, isAntdNonText);
    expect(pseudo.locale).toBe('en');
    expect(pseudo.DatePicker?.lang.yearFormat).toBe('YYYY');
    expect(pseudo.Pagination?.items_per_page).toMatch(/^\[\/ þàĝé ·+\]$/);
    expect(pseudo.Modal?.okText).toMatch(/^\[ÖĶ ·\]$/);
    expect(typeof pseudo.Empty?.description).toBe('string');
  });
});
