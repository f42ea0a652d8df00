import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorMessagesZh, localisedErrorMessage, preferredMessageLanguage } from './error-messages-zh';

const webZh = JSON.parse(
  fs.readFileSync(
    path.resolve(
      path.dirname(fileURLToPath(import.meta.url)),
      '../../../apps/web/src/locales/zh-CN/errors.json',
    ),
    'utf8',
  ),
) as Record<string, string>;

describe('error messages in Chinese', () => {
  it('say what the web catalogue says', () => {
    for (const [code, text] of Object.entries(ErrorMessagesZh)) expect(text, code).toBe(webZh[code]);
  });

  it('follow the weights of Accept-Language, English without a Chinese or English tag', () => {
    expect(preferredMessageLanguage('zh-CN')).toBe('zh-CN');
    expect(preferredMessageLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(preferredMessageLanguage('en-US,en;q=0.9,zh-CN;q=0.8')).toBe('en-US');
    expect(preferredMessageLanguage('fr;q=1, zh-TW;q=0.5, en;q=0.4')).toBe('zh-CN');
    expect(preferredMessageLanguage('zh;q=0, en;q=0.1')).toBe('en-US');
    expect(preferredMessageLanguage('*')).toBe('en-US');
    expect(preferredMessageLanguage(undefined)).toBe('en-US');
  });

  it('replace only the registry’s own text', () => {
    expect(localisedErrorMessage('1505', 'The file is too large to preview', 'zh-CN')).toEqual({
      msg: '文件过大，无法预览',
      lang: 'zh-CN',
    });
    expect(localisedErrorMessage('1004', 'Invalid input: body/name too long', 'zh-CN')).toEqual({
      msg: 'Invalid input: body/name too long',
      lang: 'en-US',
    });
    expect(localisedErrorMessage('1505', 'The file is too large to preview', 'en')).toEqual({
      msg: 'The file is too large to preview',
      lang: 'en-US',
    });
    expect(localisedErrorMessage('XYZ', 'odd', 'zh-CN')).toEqual({ msg: 'odd', lang: 'en-US' });
  });

  it('answer a message written for the occasion in Chinese when it has one', () => {
    expect(localisedErrorMessage('1022', 'Not a folder: /x', 'zh-CN', '不是文件夹：/x')).toEqual({
      msg: '不是文件夹：/x',
      lang: 'zh-CN',
    });
    expect(localisedErrorMessage('1022', 'Not a folder: /x', 'en', '不是文件夹：/x')).toEqual({
      msg: 'Not a folder: /x',
      lang: 'en-US',
    });
    expect(localisedErrorMessage('1022', 'Not a folder: /x', undefined, '不是文件夹：/x').lang).toBe('en-US');
  });
});
