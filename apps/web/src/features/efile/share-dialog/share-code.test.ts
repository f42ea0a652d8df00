import { describe, expect, it } from 'vitest';
import { absoluteLink, generateShareCode } from './share-code';

describe('share helpers', () => {
  it('generates 6 unambiguous characters', () => {
    const code = generateShareCode();
    expect(code).toMatch(/^[a-z2-9]{6}$/);
    expect(code).not.toMatch(/[01ilo]/);
  });
  it('makes a relative link absolute', () => {
    expect(absoluteLink('/share/11250/abc', 'http://h:1')).toBe('http://h:1/share/11250/abc');
    expect(absoluteLink('https://p.org/share/1/x', 'http://h')).toBe('https://p.org/share/1/x');
  });
});
