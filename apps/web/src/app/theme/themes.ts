import type { ThemeConfig } from 'antd';
import { PRIMARY, type ThemeName } from '../../shared/preferences/themes';

// The names live in shared/ (features read the theme too); the Ant Design tokens of each are the shell's.
export {
  THEME_NAMES,
  DEFAULT_THEME,
  isThemeName,
  PRIMARY,
  type ThemeName,
} from '../../shared/preferences/themes';
/**
 * The primary as text (links, the "processing" tag): a shade darker, since the brand colours reach only 4.1-4.6:1
 * (light blue 3.3-3.7:1) on the page background and the soft tints, under the 4.5:1 of WCAG AA. Same as
 * `--hpc-link` in app.css.
 */
export const LINK: Record<ThemeName, string> = { dark_blue: '#3b57d4', light_blue: '#2a67a0' };

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
      colorInfo: LINK[name],
      colorLink: LINK[name],
      // Ant Design's greys and status texts are under 4.5:1 on white (0.45 black 3.4:1, #ff4d4f 3.3:1, #faad14
      // 1.9:1): darker ones, so secondary texts, danger buttons and warnings stay readable (axe color-contrast).
      colorTextDescription: 'rgba(0, 0, 0, 0.57)',
      colorTextTertiary: 'rgba(0, 0, 0, 0.57)',
      colorError: '#cf1322',
      colorWarningText: '#874d00',
      borderRadius: 8,
      fontFamily,
      colorBgLayout: dark ? '#f3f5fb' : '#f4f8fb',
    },
    components: {
      // The success tags ("正常"/"Normal" in the user centre): Ant Design's green (#52c41a) is 2.6:1 on its tint
      // (#f6ffed), under WCAG AA's 4.5:1 (axe color-contrast); the tags' shade of green three steps down is 5.9:1.
      // The warning tags (the Dashboard's "balance under 100", "expires in 5 days"): #faad14 on #fffbe6 is 1.8:1;
      // the shade Ant Design uses for warning text (#874d00) is 7.6:1.
      Tag: { colorSuccess: '#237804', colorWarning: '#874d00' },
      // The selected tab's label in the primary is 4.2:1 on the page background: the link shade (as for links).
      Tabs: { itemSelectedColor: LINK[name], itemHoverColor: LINK[name], itemActiveColor: LINK[name] },
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
