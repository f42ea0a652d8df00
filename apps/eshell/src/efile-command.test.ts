import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EFILE_COMMAND_PATH, efileSequence, parseEfileRequest } from '@hpc/contracts';
import { EFILE_COMMAND } from '../../../scripts/cluster/sshd.mjs';

/** The shell's `efile` command as the service ships it (installed on login nodes, docs/OPERATIONS.md). */
const COMMAND = fileURLToPath(new URL('../bin/efile', import.meta.url));
/** Every POSIX shell of this machine that can run it: sh (dash on Debian), and bash and busybox when present. */
const SHELLS = [['sh'], ['bash', '--posix'], ['busybox', 'sh']].filter(
  ([bin]) => spawnSync(bin!, ['-c', 'exit 0']).status === 0,
);

let dir: string;

function efile(shell: string[], args: string[], env: Record<string, string> = {}, cwd = dir) {
  const r = spawnSync(shell[0]!, [...shell.slice(1), COMMAND, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
  });
  return { status: r.status, out: r.stdout, err: r.stderr.toString('utf8') };
}

/** The bytes the page must see, written by the contracts' reference encoder. */
const expected = (verb: 'open' | 'get', p: string) => Buffer.from(efileSequence({ verb, path: p }), 'utf8');
const requestOf = (out: Buffer) => {
  const s = out.toString('utf8');
  const start = '\x1b]7337;';
  return s.startsWith(start) && s.endsWith('\x07') ? parseEfileRequest(s.slice(start.length, -1)) : null;
};

beforeAll(() => {
  // realpath: the temp folder's own path has no symbolic link in it, so the logical and physical paths agree.
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'efile-cmd-')));
  fs.mkdirSync(path.join(dir, 'my results', '结果'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'my results', '结果', 'data 1.csv'), 'a,b\n');
  fs.writeFileSync(path.join(dir, 'results.csv'), 'x\n');
  fs.symlinkSync(path.join(dir, 'my results'), path.join(dir, 'link'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(SHELLS.map((s) => [s.join(' '), s] as const))('efile under %s', (_name, shell) => {
  it('open . prints the sequence of the current folder, exactly, and says so on stderr', () => {
    const r = efile(shell, ['open', '.']);
    expect(r.status).toBe(0);
    expect(r.out).toEqual(expected('open', dir));
    expect(requestOf(r.out)).toEqual({ verb: 'open', path: dir });
    expect(r.err).toContain(`open ${dir} in E-File`);
  });

  it('open without a folder is open .; a folder with spaces and Chinese is sent as its UTF-8 bytes', () => {
    expect(efile(shell, ['open']).out).toEqual(expected('open', dir));
    const sub = path.join(dir, 'my results', '结果');
    const r = efile(shell, ['open', 'my results/结果']);
    expect(r.status).toBe(0);
    expect(r.out).toEqual(expected('open', sub));
    expect(requestOf(r.out)).toEqual({ verb: 'open', path: sub });
    // From inside it, `..` resolves to its parent; an absolute argument is taken as it is.
    expect(efile(shell, ['open', '..'], {}, sub).out).toEqual(expected('open', path.join(dir, 'my results')));
    expect(efile(shell, ['open', '/']).out).toEqual(expected('open', '/'));
  });

  it('get sends the absolute path of a file, relative or absolute, spaces and Chinese included', () => {
    const file = path.join(dir, 'my results', '结果', 'data 1.csv');
    const r = efile(shell, ['get', 'my results/结果/data 1.csv']);
    expect(r.status).toBe(0);
    expect(r.out).toEqual(expected('get', file));
    expect(requestOf(r.out)).toEqual({ verb: 'get', path: file });
    expect(efile(shell, ['get', 'results.csv']).out).toEqual(expected('get', path.join(dir, 'results.csv')));
    expect(efile(shell, ['get', file]).out).toEqual(expected('get', file));
    expect(efile(shell, ['get', 'data 1.csv'], {}, path.join(dir, 'my results', '结果')).out).toEqual(
      expected('get', file),
    );
  });

  it('keeps the path as the shell names it (a symbolic link is not resolved)', () => {
    expect(efile(shell, ['get', 'link/结果/data 1.csv']).out).toEqual(
      expected('get', path.join(dir, 'link', '结果', 'data 1.csv')),
    );
  });

  it('refuses missing paths, a file to open and a folder to get, printing nothing to the terminal', () => {
    const cases: [string[], RegExp][] = [
      [['get', 'nope.csv'], /nope\.csv: no such file/],
      [['open', 'nope'], /nope: no such folder/],
      [['get', 'my results'], /my results: is a folder \(to open it: efile open my results\)/],
      [['open', 'results.csv'], /results\.csv: not a folder \(to download a file: efile get results\.csv\)/],
      [['get'], /get takes one file/],
      [['get', 'a', 'b'], /get takes one file/],
      [['open', '.', '..'], /open takes one folder/],
    ];
    for (const [args, message] of cases) {
      const r = efile(shell, args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.out.length, args.join(' ')).toBe(0);
      expect(r.err).toMatch(message);
    }
  });

  it('answers --help, and an unknown command or none with its usage (exit 2), printing no sequence', () => {
    const help = efile(shell, ['--help']);
    expect(help.status).toBe(0);
    expect(help.out.toString()).toMatch(/^Usage: efile open \[FOLDER\]/);
    expect(help.out.toString()).not.toContain('\x1b');
    for (const args of [[], ['url'], ['rm', '.']]) {
      const r = efile(shell, args);
      expect(r.status).toBe(2);
      expect(r.out.length).toBe(0);
      expect(r.err).toContain('Usage: efile open');
    }
  });

  it('speaks Chinese under a Chinese locale', () => {
    expect(efile(shell, ['get', 'nope.csv'], { LANG: 'zh_CN.UTF-8' }).err).toBe(
      'efile：nope.csv：文件不存在\n',
    );
    expect(efile(shell, ['--help'], { LC_ALL: 'zh_CN.UTF-8' }).out.toString()).toMatch(/^用法：efile open/);
  });

  it('refuses a path the page could not show, and wraps the sequence for tmux inside tmux', () => {
    fs.mkdirSync(path.join(dir, 'a\nb'), { recursive: true });
    const r = efile(shell, ['open', 'a\nb']);
    expect(r.status).toBe(1);
    expect(r.out.length).toBe(0);
    const t = efile(shell, ['open', '.'], { TMUX: '/tmp/tmux-0/default,1,0' });
    expect(t.out.toString('utf8')).toBe(`\x1bPtmux;\x1b${expected('open', dir).toString('utf8')}\x1b\\`);
  });
});

describe('where the command is installed', () => {
  it("is the path of the page's help, and the command is executable as shipped", () => {
    expect(EFILE_COMMAND).toBe(EFILE_COMMAND_PATH);
    expect(fs.readFileSync(COMMAND, 'utf8')).toContain(EFILE_COMMAND_PATH);
    expect(fs.statSync(COMMAND).mode & 0o777).toBe(0o755);
  });
});
