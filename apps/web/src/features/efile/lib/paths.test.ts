import { describe, expect, it } from 'vitest';
import {
  baseName,
  breadcrumbs,
  isInsideRoots,
  joinPath,
  keepBothName,
  normalizeTypedPath,
  parentPath,
  splitExt,
} from './paths';

describe('paths', () => {
  it('joins, splits and goes up', () => {
    expect(joinPath('/', 'a')).toBe('/a');
    expect(joinPath('/a/b', 'c')).toBe('/a/b/c');
    expect(parentPath('/a/b/c')).toBe('/a/b');
    expect(parentPath('/a')).toBe('/');
    expect(baseName('/a/b.txt')).toBe('b.txt');
    expect(splitExt('a.tar.gz')).toEqual({ stem: 'a.tar', ext: '.gz' });
    expect(splitExt('.bashrc')).toEqual({ stem: '.bashrc', ext: '' });
  });

  it('finds the next free keep-both name', () => {
    const taken = new Set(['r(1).txt']);
    expect(keepBothName('r.txt', (n) => taken.has(n))).toBe('r(2).txt');
    expect(keepBothName('dir', () => false)).toBe('dir(1)');
  });

  it('validates typed paths', () => {
    expect(normalizeTypedPath(' /public/home/demo/ ')).toBe('/public/home/demo');
    expect(normalizeTypedPath('/')).toBe('/');
    expect(normalizeTypedPath('public/home')).toBeNull();
    expect(normalizeTypedPath('/a/../b')).toBeNull();
    expect(normalizeTypedPath('/a//b')).toBeNull();
    expect(normalizeTypedPath('')).toBeNull();
  });

  it('builds breadcrumbs from the enclosing root', () => {
    const roots = ['/public/home/demo', '/public/share/g'];
    expect(breadcrumbs('/public/home/demo/x/y', roots).map((c) => c.path)).toEqual([
      '/public/home/demo',
      '/public/home/demo/x',
      '/public/home/demo/x/y',
    ]);
    expect(breadcrumbs('/public/share/g', roots)).toEqual([
      { name: '/public/share/g', path: '/public/share/g' },
    ]);
    expect(isInsideRoots('/public/home/demox', roots)).toBe(false);
    expect(isInsideRoots('/public/home/demo/a', roots)).toBe(true);
  });
});
