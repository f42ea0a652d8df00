import { beforeAll, describe, expect, it } from 'vitest';
import i18n, { initI18n, loadLanguage } from '../../shared/i18n/i18n';
import { FastransError } from './fastrans-client';
import { refusalText } from './refusal-text';

describe('a fast-transfer refusal in the page language', () => {
  beforeAll(async () => {
    await initI18n();
    await loadLanguage('en-US');
    await loadLanguage('zh-CN');
  });

  it("says the client's Chinese to a Chinese page, the English to an English one", () => {
    const e = new FastransError('30003', 'Log in first', null, '请先登录');
    expect(refusalText(e, i18n.t, 'zh-CN')).toBe('请先登录');
    expect(refusalText(e, i18n.t, 'en-US')).toBe('Log in first');
  });

  it('says a message with no Chinese by its code on a Chinese page, never the English', () => {
    const t = i18n.getFixedT('zh-CN');
    // The page's own (the connection closed) and efile's words relayed by the client.
    expect(refusalText(new FastransError('30001', 'The client closed the connection'), t, 'zh-CN')).toBe(
      '与快传客户端的连接已断开',
    );
    expect(refusalText(new FastransError('1020', 'No such file: /x'), t, 'zh-CN')).toBe(
      i18n.getFixedT('zh-CN')('errors.1020'),
    );
    expect(refusalText(new FastransError('1020', 'No such file: /x'), t, 'zh-CN')).not.toMatch(/[A-Za-z]{3}/);
    // A code nobody knows: the English rather than nothing.
    expect(refusalText(new FastransError('777', 'odd'), t, 'zh-CN')).toBe('odd');
  });
});
