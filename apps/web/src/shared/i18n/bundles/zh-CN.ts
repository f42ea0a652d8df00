import antd from 'antd/locale/zh_CN';
import { collect, type Catalogue } from './collect';

export const translation = collect(
  import.meta.glob<{ default: Catalogue }>('../../../locales/zh-CN/*.json', { eager: true }),
);
export { antd };
