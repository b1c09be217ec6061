import { DislikeFilled, LikeFilled } from '@ant-design/icons';
import { Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { type AiRating, useRatings } from '../api.ts';

/** What people thought of the assistant's answers, with their reasons: where to improve the FAQs. */
export function RatingsPanel() {
  const [page, setPage] = useState(1);
  const ratings = useRatings(page);
  const columns: TableColumnsType<AiRating> = [
    {
      title: 'Rating',
      key: 'rating',
      width: 80,
      render: (_, r) =>
        r.rating === 'up' ? (
          <LikeFilled aria-label="Good" style={{ color: '#389e0d' }} />
        ) : (
          <DislikeFilled aria-label="Bad" style={{ color: '#cf1322' }} />
        ),
    },
    { title: 'Asked', key: 'message', render: (_, r) => r.message || '—' },
    {
      title: 'Answer',
      key: 'response',
      render: (_, r) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: r.response }} style={{ margin: 0 }}>
          {r.response}
        </Typography.Paragraph>
      ),
    },
    { title: 'Why', key: 'feedback', render: (_, r) => r.feedback || '—' },
    {
      title: 'By',
      key: 'by',
      render: (_, r) => (
        <>
          {r.user_name ?? 'Someone'}
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {new Date(r.created_at).toLocaleString()}
          </Typography.Text>
        </>
      ),
    },
  ];
  const responsive = useResponsiveColumns(columns, 640);
  return (
    <Panel title="Ratings" flush>
      <Table<AiRating>
        rowKey="id"
        {...responsive}
        dataSource={ratings.data?.items}
        loading={ratings.isFetching}
        pagination={{
          current: page,
          pageSize: 10,
          total: ratings.data?.total ?? 0,
          onChange: setPage,
          hideOnSinglePage: true,
        }}
        locale={{
          emptyText: ratings.isError
            ? failureText(ratings.error)
            : 'No ratings yet. Thumbs up or down on an answer (here or in the inbox) shows up here.',
        }}
      />
    </Panel>
  );
}
