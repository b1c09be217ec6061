import { Grid } from 'antd';

/** On a phone a list item's buttons go under its text, so the text keeps the width. */
export function useItemLayout(): 'vertical' | 'horizontal' {
  return Grid.useBreakpoint().md === false ? 'vertical' : 'horizontal';
}
