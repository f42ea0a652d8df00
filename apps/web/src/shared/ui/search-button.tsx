import { Button } from 'antd';
import { SearchOutlined } from '@ant-design/icons';

/**
 * The button of an `Input.Search` with an accessible name: Ant Design's own is an icon whose only name is its
 * untranslated "search". Pass as `enterButton`; the input clones it with its click.
 */
export const searchButton = (label: string) => (
  <Button icon={<SearchOutlined />} aria-label={label} title={label} />
);
