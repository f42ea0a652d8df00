import type { ThemeConfig } from 'antd';

/** The two themes of spec §1: dark blue (default) and light blue. */
export type ThemeName = 'dark_blue' | 'light_blue';
export const THEME_NAMES: readonly ThemeName[] = ['dark_blue', 'light_blue'];
export const DEFAULT_THEME: ThemeName = 'dark_blue';
export const isThemeName = (v: unknown): v is ThemeName => THEME_NAMES.includes(v as ThemeName);

export const PRIMARY: Record<ThemeName, string> = { dark_blue: '#4c6ae9', light_blue: '#418bc9' };

const fontFamily =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";

/**
 * Ant Design tokens per theme. The app's own surfaces (header, hero, cards) read CSS variables set from
 * `data-theme` in app.css, so both stay in step.
 */
export function antTheme(name: ThemeName): ThemeConfig {
  const dark = name === 'dark_blue';
  return {
    cssVar: { key: 'hpc' },
    token: {
      colorPrimary: PRIMARY[name],
      colorInfo: PRIMARY[name],
      colorLink: PRIMARY[name],
      borderRadius: 8,
      fontFamily,
      colorBgLayout: dark ? '#f3f5fb' : '#f4f8fb',
    },
    components: {
      Layout: {
        headerBg: dark ? '#151c3f' : '#ffffff',
        headerHeight: 60,
        headerPadding: '0 24px',
        footerBg: 'transparent',
      },
      Menu: dark
        ? {
            darkItemBg: '#151c3f',
            darkItemSelectedBg: PRIMARY.dark_blue,
            darkPopupBg: '#151c3f',
          }
        : {},
    },
  };
}
