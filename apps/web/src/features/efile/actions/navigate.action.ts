import { parentPath } from '../lib/paths';
import { defineAction, onFiles } from './action';

/** Ctrl/⌘+A: every entry of the page on screen. */
export const selectAllAction = defineAction({
  id: 'selectAll',
  labelKey: 'efile.actions.selectAll',
  keys: [{ key: 'a', mod: true }],
  enabled: onFiles,
  run: ({ rows, select }) => select(rows.map((r) => r.path)),
});

/** Backspace: the parent folder, inside the user's roots (the path bar's arrow does the same). */
export const upAction = defineAction({
  id: 'up',
  labelKey: 'efile.actions.up',
  keys: [{ key: 'Backspace' }],
  enabled: (s) => onFiles(s) && s.canGoUp,
  run: ({ dir, goTo }) => {
    if (dir) goTo(parentPath(dir));
  },
});
