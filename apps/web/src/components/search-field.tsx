import { SearchOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import type { SearchProps } from 'antd/es/input';

/**
 * antd's search field with its button named: the button shows only a magnifier, and icons are hidden from
 * screen readers (they are decorative), so without a name it would be read as an unnamed button.
 */
export function SearchField(props: SearchProps) {
  return <Input.Search enterButton={<Button icon={<SearchOutlined />} aria-label="Search" />} {...props} />;
}
