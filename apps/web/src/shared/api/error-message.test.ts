import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ApiError } from '@hpc/api-client';
import { errorMessage } from './error-message';

const catalogue: Record<string, string> = {
  'errors.1007': '用户已冻结：账号已停用',
  'errors.1505': '文件过大，无法预览',
  'errors.403': '没有权限',
  'errors.unknown': '未知错误',
};
const t = ((key: string, opts?: { defaultValue?: string }) =>
  catalogue[key] ?? opts?.defaultValue ?? key) as TFunction;
const apiError = (code: string, msg: string, status: number, lang: string | null) =>
  new ApiError({ code, msg, status, kind: 'api', lang });

describe('errorMessage', () => {
  it('shows a direct code’s server message only when the server wrote it in the user’s language', () => {
    expect(errorMessage(apiError('1505', '文件过大，无法预览', 413, 'zh-CN'), t, 'zh-CN')).toBe(
      '文件过大，无法预览',
    );
    expect(errorMessage(apiError('1505', 'The file is too large to preview', 413, 'en-US'), t, 'zh-CN')).toBe(
      '文件过大，无法预览',
    );
    expect(errorMessage(apiError('1505', 'The file is too large to preview', 413, null), t, 'zh-CN')).toBe(
      '文件过大，无法预览',
    );
    expect(errorMessage(apiError('1505', 'Too large: 6 MB over 5 MB', 413, 'en-US'), t, 'en-US')).toBe(
      'Too large: 6 MB over 5 MB',
    );
  });

  it('treats 401/403 answers the same way: a 403 in English is shown from the catalogue to a Chinese user', () => {
    expect(
      errorMessage(apiError('1007', 'User frozen: the account is deactivated', 403, 'en-US'), t, 'zh-CN'),
    ).toBe('用户已冻结：账号已停用');
    expect(errorMessage(apiError('CSRF_X', 'Refused', 403, 'en-US'), t, 'zh-CN')).toBe('没有权限');
  });

  it('translates other codes, and falls back to the server text for a code the catalogue does not know', () => {
    expect(errorMessage(apiError('1007', 'whatever', 400, 'zh-CN'), t, 'zh-CN')).toBe(
      '用户已冻结：账号已停用',
    );
    expect(errorMessage(apiError('999', 'Odd failure', 400, 'en-US'), t, 'zh-CN')).toBe('Odd failure');
  });
});
