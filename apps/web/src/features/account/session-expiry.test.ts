import { describe, expect, it } from 'vitest';
import { detectAreaMode } from './area-mode';
import { sessionExpiryAction } from './session-expiry';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('sessionExpiryAction', () => {
  it('sends the user to login with the way back', () => {
    expect(
      sessionExpiryAction({
        areaMode: false,
        hadSession: true,
        location: at('/model-zoo/3', '?a=1'),
        code: '401',
      }),
    ).toEqual({
      type: 'navigate',
      to: '/api/auth/loginSsoRedirect.action?redirect=%2Fmodel-zoo%2F3%3Fa%3D1',
    });
  });

  it('keeps the way back through the SSO redirect, hash included', () => {
    expect(
      sessionExpiryAction({ areaMode: false, hadSession: true, location: at('/efile', '?path=%2Fa', '#x') }),
    ).toEqual({
      type: 'navigate',
      to: '/api/auth/loginSsoRedirect.action?redirect=%2Fefile%3Fpath%3D%252Fa%23x',
    });
  });

  it('closes the window in area mode', () => {
    expect(
      sessionExpiryAction({ areaMode: true, hadSession: true, location: at('/service-list'), code: '401' }),
    ).toEqual({
      type: 'close',
    });
  });

  it('ignores a 401 in a tab that never had a session: a visitor, not a timeout', () => {
    for (const areaMode of [false, true]) {
      expect(
        sessionExpiryAction({ areaMode, hadSession: false, location: at('/main-page'), code: '401' }).type,
      ).toBe('ignore');
    }
  });

  it('ignores a wrong password, throttling and CSRF refusals, which are not expiries', () => {
    for (const code of ['LOGIN_FAILED', 'LOGIN_THROTTLED', 'CSRF']) {
      expect(
        sessionExpiryAction({ areaMode: false, hadSession: true, location: at('/main-page'), code }).type,
      ).toBe('ignore');
    }
  });

  it('ignores 401s on pages that work without a session', () => {
    for (const p of ['/login', '/404', '/share/abc', '/s/abc']) {
      expect(
        sessionExpiryAction({ areaMode: false, hadSession: true, location: at(p), code: '401' }).type,
      ).toBe('ignore');
    }
    expect(
      sessionExpiryAction({ areaMode: false, hadSession: true, location: at('/login-help'), code: '401' })
        .type,
    ).toBe('navigate');
  });
});

describe('detectAreaMode', () => {
  it('is on with ?area=, an opener, or when remembered for the tab', () => {
    expect(detectAreaMode({ search: '?area=hf', hasOpener: false, remembered: false })).toBe(true);
    expect(detectAreaMode({ search: '?area', hasOpener: false, remembered: false })).toBe(true);
    expect(detectAreaMode({ search: '', hasOpener: true, remembered: false })).toBe(true);
    expect(detectAreaMode({ search: '', hasOpener: false, remembered: true })).toBe(true);
  });

  it('is off for a page opened directly', () => {
    expect(detectAreaMode({ search: '?q=area', hasOpener: false, remembered: false })).toBe(false);
  });
});
