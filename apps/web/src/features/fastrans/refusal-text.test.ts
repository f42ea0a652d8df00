import { beforeAll, describe, expect, it } from 'vitest';
import i18n, { initI18n, loadLanguage } from '../../shared/i18n/i18n';
import { FastransError } from './fastrans-client';
import { refusalText, taskErrorText } from './refusal-text';

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

  it("says a task's error in the page language: the engine's words, a server's code; a diagnostic as it came", () => {
    const zh = i18n.getFixedT('zh-CN');
    const en = i18n.getFixedT('en-US');
    expect(taskErrorText('cancelled', zh, 'zh-CN')).toBe('已取消');
    expect(taskErrorText('checksum differs', en, 'en-US')).toBe('The checksum differs');
    expect(taskErrorText('1020 No such file: /x', zh, 'zh-CN')).toBe(`1020 ${zh('errors.1020')}`);
    expect(taskErrorText('1020 No such file: /x', en, 'en-US')).toBe('1020 No such file: /x');
    expect(taskErrorText('connect ECONNREFUSED 127.0.0.1:1', zh, 'zh-CN')).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
  });
});
