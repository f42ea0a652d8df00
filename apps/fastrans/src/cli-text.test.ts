import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { expectBilingual } from '../../../test-support/bilingual';
import { FastransTaskState } from '@hpc/contracts';
import { CliStateText, CliText, cliLanguage, cliWords } from './cli-text';
import { ClientError } from './session';
import { FastransText } from './messages';

const main = path.join(import.meta.dirname, 'main.ts');
/** The command line as a user runs it, with only the locale variables given (none of the test's own). */
const run = (env: Record<string, string>, ...args: string[]) => {
  const { LANG: _l, LC_ALL: _a, LC_MESSAGES: _m, LANGUAGE: _g, ...rest } = process.env;
  return execFileSync(process.execPath, ['--import', 'tsx', main, ...args], {
    env: { ...rest, ...env, HOME: '/nonexistent-home' },
    encoding: 'utf8',
  });
};

describe('the command line in the terminal’s language', () => {
  it('has every text and every task state in both languages', () => {
    expectBilingual(CliText);
    expectBilingual(CliStateText);
  });

  it('follows LC_ALL, then LC_MESSAGES, then LANG', () => {
    expect(cliLanguage({ LANG: 'zh_CN.UTF-8' })).toBe('zh');
    expect(cliLanguage({ LANG: 'zh_TW' })).toBe('zh');
    expect(cliLanguage({ LANG: 'zh' })).toBe('zh');
    expect(cliLanguage({ LANG: 'en_US.UTF-8' })).toBe('en');
    expect(cliLanguage({ LANG: 'C.UTF-8' })).toBe('en');
    expect(cliLanguage({})).toBe('en');
    expect(cliLanguage({ LANG: 'zh_CN.UTF-8', LC_MESSAGES: 'C' })).toBe('en');
    expect(cliLanguage({ LANG: 'en_US.UTF-8', LC_ALL: 'zh_CN.UTF-8' })).toBe('zh');
    // Not a prefix match of any word starting with "zh".
    expect(cliLanguage({ LANG: 'zhx_YY' })).toBe('en');
  });

  it('says states, the engine’s errors and the client’s refusals in Chinese, a server’s words as they came', () => {
    const zh = cliWords('zh');
    expect(zh.state(FastransTaskState.successful)).toBe('成功');
    expect(zh.taskError('checksum differs')).toBe('校验值不一致');
    expect(zh.taskError('1021 File already exists')).toBe('1021 File already exists');
    expect(zh.failure(new ClientError('30003', FastransText.logInFirst))).toBe('请先登录');
    expect(zh.failure(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
    const en = cliWords('en');
    expect(en.state(FastransTaskState.stopped)).toBe('paused');
    expect(en.failure(new ClientError('30003', FastransText.logInFirst))).toBe('Log in first');
  });

  it('prints its help in Chinese for LANG=zh_CN.UTF-8 and in English for LANG=C', () => {
    const zh = run({ LANG: 'zh_CN.UTF-8' }, 'help');
    expect(zh).toContain('HPC 门户的快传客户端');
    expect(zh).toContain('fastrans upload <本地路径> <远程目录>');
    const en = run({ LANG: 'C' }, 'help');
    expect(en).toContain('the fast-transfer client of the HPC portal');
    expect(en).not.toMatch(/[\u4e00-\u9fff]/);
  }, 60_000);

  it('refuses a token in the arguments, where every local account reads it, and says to use FASTRANS_TOKEN', () => {
    let failed: { status: number | null; stderr: string } | null = null;
    try {
      run({ LANG: 'zh_CN.UTF-8' }, 'upload', 'a', 'b', '--token', 'secret');
    } catch (e) {
      failed = e as { status: number | null; stderr: string };
    }
    expect(failed?.status).toBe(2);
    expect(String(failed?.stderr)).toContain('FASTRANS_TOKEN');
    expect(String(failed?.stderr)).not.toContain('secret');
  }, 60_000);
});
