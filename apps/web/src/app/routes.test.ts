import { describe, expect, it } from 'vitest';
import { isWebPage, WebPages } from '@hpc/contracts';
import { appRoutes } from './routes';

describe('the route table and the pages the portal knows (issue 25 §3.8)', () => {
  it('has a route for every address of WebPages, and no other besides the catch-all', () => {
    const paths = appRoutes.map((r) => r.path).filter((p) => p !== '*');
    expect([...paths].sort()).toEqual(Object.values(WebPages).sort());
  });

  it('matches as the router does: parameters are one segment, case and a trailing slash aside', () => {
    expect(isWebPage('/model-zoo/123')).toBe(true);
    expect(isWebPage('/image/x/y')).toBe(true);
    expect(isWebPage('/EFILE/')).toBe(true);
    expect(isWebPage('/image/x')).toBe(false);
    expect(isWebPage('/no-such-page')).toBe(false);
  });
});
