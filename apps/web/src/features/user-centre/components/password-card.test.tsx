import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { UserProfile } from '@hpc/contracts';
import '../../../shared/i18n/i18n';
import { PasswordCard } from './password-card';

const base: UserProfile = {
  id: 1,
  username: 'u',
  fullName: '',
  email: '',
  role: 'user',
  createdAt: 0,
  hasPassword: true,
  sso: false,
  ssoProvider: null,
};

const render = (profile: UserProfile) =>
  renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <PasswordCard profile={profile} />
    </QueryClientProvider>,
  );

describe('PasswordCard', () => {
  it('offers the form to a user with a local password', () => {
    const html = render(base);
    // Texts load per language at run time; here the keys show which parts rendered.
    expect(html).toContain('user-centre.password.old');
    expect(html).toContain('id="confirmPassword"');
    expect(html).not.toContain('sso-password-notice');
    // It says beforehand that a change signs the user out everywhere else (issue 25 §1.2).
    expect(html).toContain('user-centre.password.endsOthers');
  });

  it('tells a single sign-on user without a password where to change it, with no form', () => {
    const html = render({ ...base, hasPassword: false, sso: true, ssoProvider: 'https://idp.example.cn' });
    expect(html).toContain('sso-password-notice');
    expect(html).toContain('user-centre.password.ssoWhere');
    expect(html).not.toContain('type="password"');
  });
});
