import { describe, expect, it } from 'vitest';
import { DEFAULT_AFTER_LOGIN, loginPathFor, safeRedirect } from './login-redirect';

describe('safeRedirect', () => {
  it('keeps paths on this site with their query and hash', () => {
    expect(safeRedirect('/model-zoo/12?tab=files#readme')).toBe('/model-zoo/12?tab=files#readme');
  });

  it('refuses anything that could leave the site or loop back to login', () => {
    for (const raw of [
      null,
      '',
      'model-zoo',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/login',
      '/login?redirect=%2Fx',
    ]) {
      expect(safeRedirect(raw)).toBe(DEFAULT_AFTER_LOGIN);
    }
  });
});

describe('loginPathFor', () => {
  it('carries the current place in ?redirect=', () => {
    expect(loginPathFor({ pathname: '/service-list', search: '?q=cuda', hash: '' })).toBe(
      '/login?redirect=%2Fservice-list%3Fq%3Dcuda',
    );
    expect(loginPathFor({ pathname: '/main-page' })).toBe('/login?redirect=%2Fmain-page');
  });

  it('does not point back at the login page', () => {
    expect(loginPathFor({ pathname: '/login', search: '?redirect=%2Fx' })).toBe('/login');
  });
});
