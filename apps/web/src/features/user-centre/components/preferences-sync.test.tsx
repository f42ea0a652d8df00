// @vitest-environment jsdom
import '../../../antd-jsdom.test-fixture';
import { act, render, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserPreferences, UserPreferencesBody } from '@hpc/contracts';
import { PreferencesProvider } from '../../../app/preferences';
import { initI18n } from '../../../shared/i18n/i18n';
import { usePreferences, type Preferences } from '../../../shared/preferences/preferences';
import { PreferencesSync } from './preferences-sync';

const api = vi.hoisted(() => ({
  preferences: vi.fn<() => Promise<UserPreferences>>(),
  savePreferences: vi.fn<(body: UserPreferencesBody) => Promise<void>>(async () => undefined),
}));
vi.mock('../../../shared/api/client', () => ({ identity: { user: api } }));
vi.mock('../../account', () => ({
  useSession: () => ({ user: { id: 7 }, isLoading: false, isAnonymous: false }),
}));

/** The preferences as the page holds them, for the test to act as the user (header, user centre). */
let prefs: Preferences;
function Capture() {
  const p = usePreferences();
  useEffect(() => {
    prefs = p;
  });
  return null;
}

/** The page: the preferences and, once `withSync`, the lazily loaded sync (mounted later on a real page). */
function Page({ withSync }: { withSync: boolean }) {
  return (
    <PreferencesProvider>
      <Capture />
      {withSync && <PreferencesSync />}
    </PreferencesProvider>
  );
}

/** The server's answer, held until `answer` is called. */
function serverHolds(values: Partial<UserPreferences>) {
  let answer = () => undefined as void;
  api.preferences.mockImplementationOnce(
    () =>
      new Promise((resolve) => {
        answer = () => resolve({ language: null, theme: null, dashboardEntries: null, ...values });
      }),
  );
  return { answer: () => act(async () => answer()) };
}

const shownLanguage = () => document.documentElement.lang;

describe('PreferencesSync', { timeout: 60_000 }, () => {
  // The provider switches i18next's language: initialised as the page does before it renders.
  beforeAll(() => initI18n());
  beforeEach(() => {
    localStorage.clear();
    api.preferences.mockReset();
    api.savePreferences.mockClear();
  });

  it('keeps and saves a language chosen before it mounted, over the server’s older one', async () => {
    const page = render(<Page withSync={false} />);
    await waitFor(() => expect(shownLanguage()).toBe('zh-CN'));
    // The user chooses English in the page's first instant: the sync's code has not even loaded.
    act(() => prefs.setLanguage('en-US'));
    await waitFor(() => expect(shownLanguage()).toBe('en-US'));

    const server = serverHolds({ language: 'zh-CN' });
    page.rerender(<Page withSync />);
    await server.answer();
    await waitFor(() => expect(api.savePreferences).toHaveBeenCalledWith({ language: 'en-US' }));
    expect(api.savePreferences).toHaveBeenCalledTimes(1);
    // Still English, some time after the answer.
    await new Promise((r) => setTimeout(r, 200));
    expect(shownLanguage()).toBe('en-US');
    expect(localStorage.getItem('hpc.language')).toBe('en-US');
  });

  it('saves a choice made before it mounted when the server holds none', async () => {
    const page = render(<Page withSync={false} />);
    act(() => prefs.setTheme('light_blue'));
    const server = serverHolds({});
    page.rerender(<Page withSync />);
    await server.answer();
    await waitFor(() => expect(api.savePreferences).toHaveBeenCalledWith({ theme: 'light_blue' }));
    expect(document.documentElement.dataset.theme).toBe('light_blue');
  });

  it('takes the server’s values when nothing was chosen on the page (a fresh browser, a change made elsewhere)', async () => {
    // This browser showed English last time; since then the user chose Chinese and light blue in another one.
    localStorage.setItem('hpc.language', 'en-US');
    const server = serverHolds({ language: 'zh-CN', theme: 'light_blue' });
    render(<Page withSync />);
    await server.answer();
    await waitFor(() => expect(shownLanguage()).toBe('zh-CN'));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light_blue'));
    await new Promise((r) => setTimeout(r, 200));
    expect(api.savePreferences).not.toHaveBeenCalled();
  });

  it('saves nothing for a user who never chose, and saves a change made after the read', async () => {
    const server = serverHolds({});
    render(<Page withSync />);
    await server.answer();
    await new Promise((r) => setTimeout(r, 200));
    expect(api.savePreferences).not.toHaveBeenCalled();
    act(() => prefs.setLanguage('en-US'));
    await waitFor(() => expect(api.savePreferences).toHaveBeenCalledWith({ language: 'en-US' }));
    expect(api.savePreferences).toHaveBeenCalledTimes(1);
  });

  it('saves nothing chosen before a login: the server’s values win at login', async () => {
    const page = render(<Page withSync={false} />);
    act(() => prefs.setLanguage('en-US'));
    await waitFor(() => expect(shownLanguage()).toBe('en-US'));
    // What the login does before the user's session is in (features/account, useLogin).
    prefs.unsaved.clear();
    const server = serverHolds({ language: 'zh-CN' });
    page.rerender(<Page withSync />);
    await server.answer();
    await waitFor(() => expect(shownLanguage()).toBe('zh-CN'));
    expect(api.savePreferences).not.toHaveBeenCalled();
  });

  it('keeps and saves a choice made while the server’s answer was on its way', async () => {
    const server = serverHolds({ language: 'zh-CN' });
    render(<Page withSync />);
    act(() => prefs.setLanguage('en-US'));
    await waitFor(() => expect(shownLanguage()).toBe('en-US'));
    await server.answer();
    await waitFor(() => expect(api.savePreferences).toHaveBeenCalledWith({ language: 'en-US' }));
    await new Promise((r) => setTimeout(r, 200));
    expect(shownLanguage()).toBe('en-US');
    expect(api.savePreferences).toHaveBeenCalledTimes(1);
  });
});
