import type { TFunction } from 'i18next';
import { expect, it } from 'vitest';
import { ApiError } from '@hpc/api-client';
import { loginErrorMessage } from './login-error';

const t = ((key: string) => key) as unknown as TFunction;
const apiError = (code: string, status: number) =>
  new ApiError({ code, msg: 'server text', status, kind: 'api' });

it('translates a wrong password and throttling with the login page keys', () => {
  expect(loginErrorMessage(apiError('LOGIN_FAILED', 401), t)).toBe('account.login.errors.wrongPassword');
  expect(loginErrorMessage(apiError('LOGIN_THROTTLED', 429), t)).toBe('account.login.errors.throttled');
  const withWait = new ApiError({
    code: 'LOGIN_THROTTLED',
    msg: '',
    status: 429,
    kind: 'api',
    data: { retryAfterSeconds: 900 },
  });
  expect(loginErrorMessage(withWait, t)).toBe('account.login.errors.throttledFor');
  // A proxy's own 429 without our envelope is throttling too.
  expect(
    loginErrorMessage(new ApiError({ code: '429', msg: 'Too Many Requests', status: 429, kind: 'http' }), t),
  ).toBe('account.login.errors.throttled');
});

it('explains a refused clock or CSRF check, and leaves the rest to the common messages', () => {
  expect(loginErrorMessage(apiError('REQUEST_TIME', 400), t)).toBe('account.login.errors.clock');
  expect(loginErrorMessage(apiError('CSRF', 403), t)).toBe('account.login.errors.refused');
  expect(loginErrorMessage(new ApiError({ code: 'NETWORK', msg: '', status: 0, kind: 'network' }), t)).toBe(
    'errors.network',
  );
});
