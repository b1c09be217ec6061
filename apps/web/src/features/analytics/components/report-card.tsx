import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Segmented, Table } from 'antd';
import { stringify } from 'csv-stringify/browser/esm/sync';
import { type ReactNode, useState } from 'react';

export type Column = { key: string; title: string; numeric?: boolean };
export type Row = Record<string, string | number | null>;

/** Saves rows as a CSV file, the columns' titles as its header. */
export function downloadCsv(name: string, columns: Column[], rows: Row[]): void {
  const csv = stringify([
    columns.map((c) => c.title),
    ...rows.map((r) => columns.map((c) => r[c.key] ?? '')),
  ]);
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * One figure of the analytics page: its chart, or the same numbers as a table (for reading them out, and for
 * screen readers), and its CSV.
 */
export function ReportCard({
  title,
  file,
  columns,
  rows,
  chart,
  loading,
}: {
  title: string;
  /** The CSV's file name, without the extension. */
  file: string;
  columns: Column[];
  rows: Row[];
  chart: ReactNode;
  loading: boolean;
}) {
  const [view, setView] = useState<'Chart' | 'Table'>('Chart');
  return (
    <Card
      title={title}
      loading={loading && rows.length === 0}
      extra={
        <Flex gap={8} wrap>
          <Segmented
            size="small"
            options={['Chart', 'Table']}
            value={view}
            onChange={(v) => setView(v as 'Chart' | 'Table')}
            aria-label={`${title}: chart or table`}
          />
          <Button
            size="small"
            icon={<DownloadOutlined />}
            onClick={() => downloadCsv(file, columns, rows)}
            aria-label={`Download ${title} as CSV`}
          >
            CSV
          </Button>
        </Flex>
      }
      styles={{ body: { minHeight: 240 }, title: { whiteSpace: 'normal' } }}
    >
      {view === 'Chart' ? (
        rows.length === 0 ? (
          <Flex
            align="center"
            justify="center"
            style={{ height: 200, color: 'var(--ant-color-text-tertiary)' }}
          >
            Nothing in this period.
          </Flex>
        ) : (
          chart
        )
      ) : (
        <Table
          size="small"
          pagination={false}
          scroll={{ x: true }}
          rowKey={(_, i) => String(i)}
          dataSource={rows}
          columns={columns.map((c) => ({
            key: c.key,
            dataIndex: c.key,
            title: c.title,
            align: c.numeric ? ('right' as const) : undefined,
          }))}
        />
      )}
    </Card>
  );
}
