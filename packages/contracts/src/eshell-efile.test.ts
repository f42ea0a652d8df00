import { describe, expect, it } from 'vitest';
import { EFILE_PATH_MAX, efileSequence, parseEfileRequest } from './eshell-efile';

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const data = (verb: string, path: string) => `hpc-efile;${verb};${hex(path)}`;

describe("the shell's efile request (OSC 7337)", () => {
  it('reads both verbs with absolute paths, spaces and Chinese included', () => {
    expect(parseEfileRequest(data('open', '/home/demo'))).toEqual({ verb: 'open', path: '/home/demo' });
    expect(parseEfileRequest(data('get', '/home/demo/结果 1/data.csv'))).toEqual({
      verb: 'get',
      path: '/home/demo/结果 1/data.csv',
    });
    expect(parseEfileRequest(data('open', '/'))).toEqual({ verb: 'open', path: '/' });
  });

  it('is what efileSequence prints, after the OSC number', () => {
    const seq = efileSequence({ verb: 'get', path: '/home/demo/a b.txt' });
    expect(seq).toBe(`\x1b]7337;hpc-efile;get;${hex('/home/demo/a b.txt')}\x07`);
    expect(parseEfileRequest(seq.slice('\x1b]7337;'.length, -1))).toEqual({
      verb: 'get',
      path: '/home/demo/a b.txt',
    });
  });

  it('refuses other verbs, other tags and other shapes', () => {
    for (const d of [
      data('rm', '/home/demo'),
      data('OPEN', '/home/demo'),
      data('url', 'https://evil.example/'),
      `hpc-efilex;open;${hex('/home/demo')}`,
      `other;open;${hex('/home/demo')}`,
      `hpc-efile;open;${hex('/home/demo')};extra`,
      `hpc-efile;open`,
      `hpc-efile;open;`,
      '',
      ';;',
      'hpc-efile;open;/home/demo',
    ])
      expect(parseEfileRequest(d), d).toBeNull();
  });

  it('refuses relative paths and . or .. segments', () => {
    for (const p of [
      'home/demo',
      'results.csv',
      '.',
      './a',
      '~/a',
      '/home/demo/../lisi',
      '/home/./demo',
      '/..',
    ])
      expect(parseEfileRequest(data('open', p)), p).toBeNull();
  });

  it('refuses junk: odd or upper-case hex, other characters, bytes that are not UTF-8', () => {
    const good = hex('/home/demo');
    for (const h of [
      good.slice(0, -1),
      good.toUpperCase(),
      `${good}zz`,
      `${good} `,
      `0x${good}`,
      hex('/a') + 'ff', // a lone 0xff
      hex('/a') + 'e4b8', // a cut character
      Buffer.from('/a').toString('base64'),
    ])
      expect(parseEfileRequest(`hpc-efile;get;${h}`), h).toBeNull();
  });

  it('refuses paths with control characters or direction marks (a prompt must show what it acts on)', () => {
    for (const p of [
      '/a\nb',
      '/a\x1b[31mb',
      '/a\x00b',
      '/a\x7fb',
      '/a\u0085b',
      '/a\u202eb',
      '/a\u2066b',
      '/a\u200fb',
    ])
      expect(parseEfileRequest(data('get', p)), JSON.stringify(p)).toBeNull();
  });

  it("refuses over-long input before decoding it, and paths longer than E-File's", () => {
    expect(parseEfileRequest(data('open', `/${'a'.repeat(EFILE_PATH_MAX - 1)}`))?.path).toHaveLength(
      EFILE_PATH_MAX,
    );
    expect(parseEfileRequest(data('open', `/${'a'.repeat(EFILE_PATH_MAX)}`))).toBeNull();
    // 4096 Chinese characters: 12 KiB of UTF-8, within the bound of the data, and a path E-File takes.
    expect(parseEfileRequest(data('open', `/${'中'.repeat(EFILE_PATH_MAX - 1)}`))).not.toBeNull();
    expect(parseEfileRequest(`hpc-efile;open;${'61'.repeat(1_000_000)}`)).toBeNull();
    expect(parseEfileRequest('x'.repeat(10_000_000))).toBeNull();
  });
});
