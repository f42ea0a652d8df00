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

  it('keeps and saves a choice made while the server’s was being read, instead of losing it', () => {
    const server = { language: null, theme: 'light_blue' } as const;
    // Nothing chosen meanwhile: the server's choice, nothing to save.
    expect(afterRead(server, local, local)).toEqual({
      values: { language: 'zh-CN', theme: 'light_blue' },
      synced: { language: 'zh-CN', theme: 'light_blue' },
      save: {},
    });
    // English chosen meanwhile: it stands, is saved, and the server's theme still applies.
    expect(afterRead(server, local, { ...local, language: 'en-US' })).toEqual({
      values: { language: 'en-US', theme: 'light_blue' },
      synced: { language: 'en-US', theme: 'light_blue' },
      save: { language: 'en-US' },
    });
  });
});
