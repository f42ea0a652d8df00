import { describe, expect, it } from 'vitest';
import { afterRead, atLogin, changesToSave } from './preference-rules';

describe('preference sync rules', () => {
  const local = { language: 'zh-CN', theme: 'dark_blue' } as const;

  it('lets the server’s choice win at login, and keeps the browser’s where the server has none', () => {
    expect(atLogin({ language: 'en-US', theme: 'light_blue' }, local)).toEqual({
      language: 'en-US',
      theme: 'light_blue',
    });
    expect(atLogin({ language: null, theme: 'light_blue' }, local)).toEqual({
      language: 'zh-CN',
      theme: 'light_blue',
    });
    expect(atLogin({ language: null, theme: null }, local)).toEqual(local);
  });

  it('saves only what changed', () => {
    expect(changesToSave(local, local)).toEqual({});
    expect(changesToSave(local, { ...local, theme: 'light_blue' })).toEqual({ theme: 'light_blue' });
    expect(changesToSave(local, { language: 'en-US', theme: 'light_blue' })).toEqual({
      language: 'en-US',
      theme: 'light_blue',
    });
  });

  it('keeps and saves a choice the user made on the page before the server’s values arrived', () => {
    const server = { language: null, theme: 'light_blue' } as const;
    // Nothing chosen: the server's choice where it has one, nothing to save.
    expect(afterRead(server, local, {})).toEqual({
      values: { language: 'zh-CN', theme: 'light_blue' },
      synced: { language: 'zh-CN', theme: 'light_blue' },
      save: {},
    });
    // English chosen (the browser shows it already): it stands, is saved, and the server's theme still applies.
    const english = { ...local, language: 'en-US' } as const;
    expect(afterRead(server, english, { language: 'en-US' })).toEqual({
      values: { language: 'en-US', theme: 'light_blue' },
      synced: { language: 'en-US', theme: 'light_blue' },
      save: { language: 'en-US' },
    });
    // Chosen over an older choice of the server's; the same choice as the server's is not saved again.
    expect(
      afterRead({ language: 'zh-CN', theme: 'dark_blue' }, english, {
        language: 'en-US',
        theme: 'dark_blue',
      }),
    ).toEqual({
      values: { language: 'en-US', theme: 'dark_blue' },
      synced: { language: 'en-US', theme: 'dark_blue' },
      save: { language: 'en-US' },
    });
    // Not chosen on this page: English shown from an earlier visit gives way to the server's Chinese.
    expect(afterRead({ language: 'zh-CN', theme: null }, english, {}).values).toEqual(local);
  });
});
