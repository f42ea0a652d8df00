import { expect, it } from 'vitest';
import { csrfHeaders, hasSessionHint, readCookie, rememberCsrfToken } from './portal-headers';

it('reads one cookie among several, decoding its value', () => {
  const jar = 'hpc.x=1; csrf=ab%2Fc; other=2';
  expect(readCookie('csrf', jar)).toBe('ab/c');
  expect(readCookie('missing', jar)).toBeNull();
  expect(readCookie('csrf', '')).toBeNull();
});

it('sends the cookie value as the CSRF header, else the token remembered from the session answer', () => {
  expect(csrfHeaders('')).toEqual({});
  rememberCsrfToken('from-session');
  expect(csrfHeaders('')).toEqual({ 'x-csrf-token': 'from-session' });
  expect(csrfHeaders('csrf=from-cookie')).toEqual({ 'x-csrf-token': 'from-cookie' });
});

it('hints at a session only when the CSRF cookie of a login is there', () => {
  expect(hasSessionHint('hpc.x=1')).toBe(false);
  expect(hasSessionHint('csrf=abc; hpc.x=1')).toBe(true);
});
