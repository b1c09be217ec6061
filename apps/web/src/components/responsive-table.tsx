import { Grid, type TableColumnsType, type TableProps, Typography } from 'antd';
import type { Key, ReactNode } from 'react';
import { ACTIONS_COLUMN } from './row-actions.tsx';

type Column<T> = TableColumnsType<T>[number] & { dataIndex?: string; render?: (...args: never[]) => unknown };

/** The value a column shows for a row, as the table would render it. */
function cell<T>(column: Column<T>, record: T, index: number): ReactNode {
  const value = column.dataIndex ? (record as Record<string, unknown>)[column.dataIndex] : undefined;
  const render = column.render as ((value: unknown, record: T, index: number) => ReactNode) | undefined;
  return render ? render(value, record, index) : (value as ReactNode);
}

/**
 * A settings table's columns that fit a phone: there, each row's columns stack in one cell (every value under
 * its heading) beside the row's actions, so nothing scrolls sideways and Edit and Delete stay in view. Wider
 * screens get the columns as they are, with `scroll` keeping narrow tablets readable.
 */
export function useResponsiveColumns<T>(
  columns: TableColumnsType<T>,
  minWidth: number,
  /** Stacked on any screen: for a table in a narrow panel, where the screen's width says nothing. */
  alwaysStacked = false,
): Pick<TableProps<T>, 'columns' | 'scroll'> {
  const phone = Grid.useBreakpoint().md === false || alwaysStacked;
  if (!phone) return { columns, scroll: { x: minWidth } };
  const actions = columns.filter((c) => c.key === ACTIONS_COLUMN.key);
  const rest = columns.filter((c) => c.key !== ACTIONS_COLUMN.key) as Column<T>[];
  const [first, ...others] = rest;
  if (!first) return { columns };
  return {
    columns: [
      {
        key: 'stacked',
        title: first.title as ReactNode,
        render: (_: unknown, record: T, index: number) => (
          <div
            style={{
              display: 'flex',
              flexDirection: 'column',
              gap: 8,
              minWidth: 0,
              overflowWrap: 'anywhere',
            }}
          >
            <div>{cell(first, record, index)}</div>
            {others.map((c, i) => (
              <div key={(c.key as Key | undefined) ?? i}>
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  {c.title as ReactNode}
                </Typography.Text>
                {cell(c, record, index)}
              </div>
            ))}
          </div>
        ),
      },
      ...actions.map((a) => ({ ...a, width: undefined })),
    ],
  };
}
