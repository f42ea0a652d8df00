import antd from 'antd/locale/en_US';
import { collect, type Catalogue } from './collect';

export const translation = collect(
  import.meta.glob<{ default: Catalogue }>('../../../locales/en-US/*.json', { eager: true }),
);
export { antd };
