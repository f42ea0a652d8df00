import { describe, expect, it } from 'vitest';
import type { FileEntry } from '@hpc/contracts';
import zh from '../../../locales/zh-CN/efile.json';
import en from '../../../locales/en-US/efile.json';
import { rangeOf } from '../hooks/use-selection';
import type { ActionState } from './action';
import { actionForKey } from './action-keys';
import { EFILE_ACTIONS } from './index';

const entry = (name: string): FileEntry =>
  ({ name, path: `/home/u/${name}`, isDirectory: false, isLink: false, ext: 'txt' }) as FileEntry;
const state = (over: Partial<ActionState> = {}): ActionState => ({
  selection: [entry('a.txt')],
  dir: '/home/u',
  online: true,
  deactivated: false,
  canGoUp: true,
  ...over,
});
const key = (k: string, mod = false) =>
  ({ key: k, ctrlKey: mod, metaKey: false, altKey: false }) as KeyboardEvent;
const text = (catalogue: unknown, labelKey: string) =>
  labelKey
    .replace(/^efile\./, '')
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalogue);

describe('the E-File action registry', () => {
  it('has unique ids, and every label and verb in both languages', () => {
    expect(new Set(EFILE_ACTIONS.map((a) => a.id)).size).toBe(EFILE_ACTIONS.length);
    for (const a of EFILE_ACTIONS) {
      for (const k of [a.labelKey, a.verbKey].filter((x): x is string => !!x)) {
        expect(typeof text(zh, k), `${a.id}: ${k} (zh-CN)`).toBe('string');
        expect(typeof text(en, k), `${a.id}: ${k} (en-US)`).toBe('string');
      }
    }
  });

  it('builds the toolbar and the context menu in the order of the list', () => {
    const where = (g: string) => EFILE_ACTIONS.filter((a) => a.toolbar === g).map((a) => a.id);
    expect(where('upload')).toEqual(['uploadFiles', 'uploadFolder']);
    expect(where('create')).toEqual(['newFolder', 'newFile']);
    const selection = ['download', 'rename', 'copy', 'move', 'share', 'submit-job', 'open-shell', 'delete'];
    expect(where('selection')).toEqual(selection);
    // The context menu: "open", then the selection's actions.
    expect(EFILE_ACTIONS.filter((a) => a.contextMenu).map((a) => a.id)).toEqual(['open', ...selection]);
  });

  it('offers "open a shell here" on the folder on screen or one selected folder, opening E-Shell there', () => {
    const shell = EFILE_ACTIONS.find((a) => a.id === 'open-shell')!;
    const folder = { ...entry('data'), isDirectory: true };
    const file = { ...entry('a.txt'), isDirectory: false };
    expect(shell.visible!(state({ selection: [] }))).toBe(true);
    expect(shell.visible!(state({ selection: [folder] }))).toBe(true);
    expect(shell.visible!(state({ selection: [file] }))).toBe(false);
    expect(shell.visible!(state({ selection: [folder, folder] }))).toBe(false);
    let went = '';
    void shell.run({
      ...state({ selection: [folder] }),
      api: { clusterId: '11250' },
      navigate: (to: string) => (went = to),
    } as unknown as Parameters<typeof shell.run>[0]);
    expect(went).toBe(`/eshell?cluster=11250&cwd=${encodeURIComponent(folder.path)}`);
  });

  it('offers "submit as job" on one script file only (.slurm, .sh, .sbatch)', () => {
    const submit = EFILE_ACTIONS.find((a) => a.id === 'submit-job')!;
    const file = (name: string, ext: string) => ({ ...entry(name), ext });
    expect(submit.visible!(state({ selection: [file('run.slurm', 'slurm')] }))).toBe(true);
    expect(submit.visible!(state({ selection: [file('a.sbatch', 'sbatch')] }))).toBe(true);
    expect(submit.visible!(state({ selection: [file('a.txt', 'txt')] }))).toBe(false);
    expect(submit.visible!(state({ selection: [file('a.sh', 'sh'), file('b.sh', 'sh')] }))).toBe(false);
  });

  it('maps the desktop keys to their actions, Ctrl/⌘ only where bound', () => {
    expect(actionForKey(EFILE_ACTIONS, key('Delete'))?.id).toBe('delete');
    expect(actionForKey(EFILE_ACTIONS, key('F2'))?.id).toBe('rename');
    expect(actionForKey(EFILE_ACTIONS, key('Enter'))?.id).toBe('open');
    expect(actionForKey(EFILE_ACTIONS, key('Backspace'))?.id).toBe('up');
    expect(actionForKey(EFILE_ACTIONS, key('a', true))?.id).toBe('selectAll');
    expect(actionForKey(EFILE_ACTIONS, key('A', true))?.id).toBe('selectAll');
    expect(actionForKey(EFILE_ACTIONS, key('a'))).toBeUndefined();
    expect(actionForKey(EFILE_ACTIONS, key('Delete', true))).toBeUndefined();
  });

  it('disables every action on a deactivated account or without a working service, by its enabled-when', () => {
    for (const s of [state({ deactivated: true }), state({ online: false })]) {
      expect(EFILE_ACTIONS.filter((a) => a.enabled(s)).map((a) => a.id)).toEqual([]);
    }
    expect(EFILE_ACTIONS.filter((a) => !a.enabled(state())).map((a) => a.id)).toEqual([]);
    // Up needs a parent inside the roots.
    expect(EFILE_ACTIONS.find((a) => a.id === 'up')!.enabled(state({ canGoUp: false }))).toBe(false);
  });
});

describe('rangeOf (Shift-click)', () => {
  const rows = ['a', 'b', 'c', 'd'].map(entry);
  const p = (n: string) => `/home/u/${n}`;
  it('takes both ends in the listing order, whichever was clicked first', () => {
    expect(rangeOf(rows, p('b'), p('d'))).toEqual([p('b'), p('c'), p('d')]);
    expect(rangeOf(rows, p('d'), p('b'))).toEqual([p('b'), p('c'), p('d')]);
    expect(rangeOf(rows, p('c'), p('c'))).toEqual([p('c')]);
  });
  it('takes just the row when the anchor is not on the page', () => {
    expect(rangeOf(rows, null, p('c'))).toEqual([p('c')]);
    expect(rangeOf(rows, '/elsewhere', p('a'))).toEqual([p('a')]);
  });
});
