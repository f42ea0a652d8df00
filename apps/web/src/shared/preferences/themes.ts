/** The two themes of spec §1: dark blue (default) and light blue. Their Ant Design tokens are the app's (app/theme). */
export type ThemeName = 'dark_blue' | 'light_blue';
export const THEME_NAMES: readonly ThemeName[] = ['dark_blue', 'light_blue'];
export const DEFAULT_THEME: ThemeName = 'dark_blue';
export const isThemeName = (v: unknown): v is ThemeName => THEME_NAMES.includes(v as ThemeName);
/** Each theme's brand colour, for the swatches that show a theme by name (the user centre's preferences). */
export const PRIMARY: Record<ThemeName, string> = { dark_blue: '#4c6ae9', light_blue: '#418bc9' };
