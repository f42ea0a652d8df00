import { describe, expect, it } from 'vitest';
import { homeDirectory, userHomes } from './home-places';

describe('home places', () => {
  const own = { homePath: '/public/home/demo', roots: ['/public/home/demo', '/public/share/g'] };

  it('is the cluster home root only where efile lets the user list it', () => {
    expect(homeDirectory('/public/home', own)).toBe('/public/home/demo');
    expect(homeDirectory('/public/home/', { ...own, roots: [...own.roots, '/public/home'] })).toBe(
      '/public/home',
    );
    expect(homeDirectory('/public', { ...own, roots: ['/'] })).toBe('/public');
    expect(homeDirectory(undefined, own)).toBe('/public/home/demo');
    expect(homeDirectory('relative', { ...own, roots: ['/'] })).toBe('/public/home/demo');
    expect(homeDirectory('/public/home', null)).toBeNull();
  });

  it("lists the user's home on each centre, efile's answer winning on the selected one", () => {
    const clusters = [
      { clusterId: 'a', centre: 'A', homePath: '/public/home/demo' },
      { clusterId: 'b', centre: 'B', homePath: '/work/home/demo2' },
      { clusterId: 'c', centre: 'C', homePath: '' },
    ];
    expect(userHomes(clusters, { clusterId: 'a', homePath: '/home/demo' })).toEqual([
      { clusterId: 'a', centre: 'A', path: '/home/demo' },
      { clusterId: 'b', centre: 'B', path: '/work/home/demo2' },
    ]);
    expect(userHomes(clusters, { clusterId: 'b', homePath: null })[1]!.path).toBe('/work/home/demo2');
  });
});
