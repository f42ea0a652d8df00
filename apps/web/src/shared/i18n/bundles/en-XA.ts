import type { Locale as AntLocale } from 'antd/es/locale';
import * as english from './en-US';
import { isAntdNonText, pseudoTree } from '../pseudo';

/** The pseudo-locale, made from the English catalogue and Ant Design's English when it is loaded (see pseudo.ts). */
export const translation = pseudoTree(english.translation);
export const antd: AntLocale = pseudoTree(english.antd, isAntdNonText);
