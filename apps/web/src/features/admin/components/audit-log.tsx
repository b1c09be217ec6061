import { Table, Typography } from 'antd';
import { useState } from 'react';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { momentText } from '@/lib/dates.ts';
import { type AuditEntry, useAuditLog } from '../api.ts';
import { auditText } from '../utils/audit-text.ts';

const when = (iso: string) => momentText(iso);

/** The audit log, newest first: who did what, to what, when. */
export function AuditLog({
  scope,
  businessId,
  stacked = false,
}: {
  scope: 'business' | 'admin';
  businessId: string | null;
  /** In a narrow panel (the admin's drawer): each entry's facts one under another, whatever the screen. */
  stacked?: boolean;
}) {
  const [page, setPage] = useState(1);
  const log = useAuditLog(scope, businessId, page);
  const responsive = useResponsiveColumns<AuditEntry>(
    [
      { key: 'when', title: 'When', render: (_: unknown, e: AuditEntry) => when(e.created_at), width: 180 },
      {
        key: 'who',
        title: 'Who',
        render: (_: unknown, e: AuditEntry) =>
          e.user ? `${e.user.full_name || e.user.email}` : 'Switchboard',
        width: 180,
      },
      {
        key: 'what',
        title: 'What',
        render: (_: unknown, e: AuditEntry) => auditText(e.action, e.detail).what,
        width: 200,
      },
      {
        key: 'detail',
        title: 'Detail',
        render: (_: unknown, e: AuditEntry) => (
          <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-word' }}>
            {auditText(e.action, e.detail).detail}
          </Typography.Text>
        ),
      },
    ],
    760,
    stacked,
  );
  return (
    <Table<AuditEntry>
      rowKey="id"
      size="small"
      loading={log.isFetching}
      dataSource={log.data?.items ?? []}
      {...responsive}
      pagination={{
        current: page,
        pageSize: 20,
        total: log.data?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
      locale={{ emptyText: log.isError ? 'The audit log could not be loaded.' : 'Nothing recorded yet.' }}
    />
  );
}
