import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import i18n, { initI18n, loadLanguage } from '../../../shared/i18n/i18n';
import { endText, endTone } from './end-text';

describe('endText', () => {
  beforeAll(async () => {
    await initI18n();
    await loadLanguage('en-US');
  });
  afterAll(() => i18n.changeLanguage('cimode'));

  it.each([
    ['zh-CN', 'exit', 0, 'Shell 已退出'],
    ['zh-CN', 'exit', 3, 'Shell 已退出，退出码 3'],
    ['zh-CN', 'exit', 255, '与登录节点的连接已断开或无法建立（ssh 退出码 255）'],
    ['zh-CN', 'idle', null, '会话长时间无活动，已结束'],
    ['en-US', 'exit', null, 'The shell exited'],
    ['en-US', 'exit', 3, 'The shell exited with status 3'],
    [
      'en-US',
      'exit',
      255,
      "The connection to the login node was lost or could not be made (ssh's status 255)",
    ],
    // Another reason's code is not the shell's: the reason alone.
    ['en-US', 'revoked', 255, expect.stringMatching(/^The session was ended: you signed out/)],
  ] as const)('%s: %s with %s', async (lang, reason, code, text) => {
    await i18n.changeLanguage(lang);
    expect(endText(i18n.t.bind(i18n), reason, code)).toEqual(text);
  });
});

describe('endTone', () => {
  it.each([
    ['exit', 0, 'info'],
    ['exit', 3, 'info'],
    ['exit', 255, 'warning'],
    ['idle', null, 'info'],
    ['closed', null, 'info'],
    ['limit', null, 'info'],
    ['error', null, 'warning'],
    ['revoked', 255, 'warning'],
    ['rights', null, 'warning'],
  ] as const)('%s with %s: %s', (reason, code, tone) => {
    expect(endTone(reason, code)).toBe(tone);
  });
});
