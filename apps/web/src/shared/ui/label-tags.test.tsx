import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CatalogLabel } from '@hpc/contracts';
import '../i18n/i18n';
import { LabelTags } from './label-tags';

const labels: CatalogLabel[] = Array.from({ length: 11 }, (_, i) => ({
  group: 'g',
  value: `v${i}`,
  label: `标签${i}`,
  labelEn: `Label ${i}`,
}));

describe('LabelTags', () => {
  it('shows at most 8 labels, then +N', () => {
    const html = renderToString(<LabelTags labels={labels} />);
    expect(html.match(/hpc-label[ "]/g)?.length).toBe(9); // 8 labels + the "+3" tag
    expect(html).toContain('标签7');
    expect(html).not.toContain('标签8');
    expect(html).toContain('+<!-- -->3');
  });

  it('shows no +N when everything fits, nothing for no labels', () => {
    expect(renderToString(<LabelTags labels={labels.slice(0, 8)} />)).not.toContain('+');
    expect(renderToString(<LabelTags labels={[]} />)).toBe('');
  });

  it('shows labels in the filter panel’s order, Latin and Han by pinyin (issue 25 §3.6)', () => {
    const mixed: CatalogLabel[] = ['昇思', 'PyTorch', '飞桨', 'JAX'].map((label, i) => ({
      group: 'framework',
      value: `f${i}`,
      label,
      labelEn: label,
    }));
    const html = renderToString(<LabelTags labels={mixed} />);
    const order = ['飞桨', 'JAX', 'PyTorch', '昇思'].map((l) => html.indexOf(l));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
