import type { ITheme } from '@xterm/xterm';
import type { ThemeName } from '../../../shared/preferences/themes';

/** The terminal's colours for the portal's two themes. */
export const TERMINAL_THEMES: Record<ThemeName, ITheme> = {
  dark_blue: {
    background: '#0b1a2e',
    foreground: '#d6e2f0',
    cursor: '#5fb3ff',
    selectionBackground: '#2a4a73',
    black: '#0b1a2e',
    blue: '#5fb3ff',
    brightBlue: '#8cc8ff',
  },
  light_blue: {
    background: '#fbfdff',
    foreground: '#1f2d3d',
    cursor: '#1677ff',
    selectionBackground: '#bcd9ff',
    black: '#1f2d3d',
    blue: '#1677ff',
    // Darker than `blue` on purpose: the usual brighter blue reads at 2.9:1 on this background (the test asks 3:1).
    brightBlue: '#1668dc',
    white: '#7d8b9c',
    brightWhite: '#5c6b7d',
    yellow: '#ad6800',
    brightYellow: '#b87500',
  },
};
