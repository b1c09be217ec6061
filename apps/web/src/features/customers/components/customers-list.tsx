import type { CustomerSummary } from '@switchboard/shared';
import { customerCalled } from '@switchboard/shared';
import { Drawer, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { SearchField } from '@/components/search-field.tsx';
import { dayText } from '@/lib/dates.ts';
import { failureText } from '@/lib/failure-text.ts';
import { phoneText } from '@/lib/phones.ts';
import { CUSTOMERS_PAGE_SIZE, useCustomers } from '../api/customers.ts';
import type { Viewer } from './customer-notes.tsx';
import CustomerProfile from './customer-profile.tsx';

const when = (iso: string | null) => (iso ? dayText(iso, 'short') : '—');

/** Everyone who has written to the business, most recently heard from first; a row opens their profile. */
export function CustomersList({ viewer }: { viewer: Viewer }) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const customers = useCustomers(q, page);

  const columns: TableColumnsType<CustomerSummary> = [
    {
      title: 'Customer',
      key: 'name',
      render: (_, c) => (
        <Typography.Link onClick={() => setOpenId(c.id)}>
          {customerCalled(c, 'Unnamed customer')}
        </Typography.Link>
      ),
    },
    { title: 'Phone', key: 'phone', render: (_, c) => phoneText(c.phone) || '—' },
    { title: 'Email', key: 'email', render: (_, c) => c.email ?? '—' },
    {
      title: 'Enquiries',
      key: 'enquiries',
      render: (_, c) => (
        <>
          {c.enquiry_count}
          {c.sms_opted_out && (
            <Tag color="red" style={{ marginInlineStart: 8 }}>
              No texts
            </Tag>
          )}
        </>
      ),
    },
    { title: 'Last heard from', key: 'last', render: (_, c) => when(c.last_message_at) },
  ];
  const responsive = useResponsiveColumns(columns, 720);
  const data = customers.data;

  return (
    <Panel
      title="All customers"
      extra={
        <SearchField
          aria-label="Search customers"
          placeholder="Name, number or email"
          allowClear
          onSearch={(value) => {
            setQ(value.trim());
            setPage(1);
          }}
          style={{ width: 'min(280px, 100%)' }}
        />
      }
      flush
    >
      <Table<CustomerSummary>
        rowKey="id"
        {...responsive}
        dataSource={data?.items}
        loading={customers.isFetching}
        onRow={(c) => ({ onClick: () => setOpenId(c.id), style: { cursor: 'pointer' } })}
        pagination={{
          current: page,
          pageSize: CUSTOMERS_PAGE_SIZE,
          // The list does not count every customer: one more page is offered while there are more.
          total: (page - 1) * CUSTOMERS_PAGE_SIZE + (data?.items.length ?? 0) + (data?.has_more ? 1 : 0),
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
        locale={{
          emptyText: customers.isError
            ? failureText(customers.error)
            : q
              ? `No customer matches “${q}”.`
              : 'No customers yet: everyone who writes to you appears here.',
        }}
      />
      <Drawer
        title="Customer"
        open={openId !== null}
        onClose={() => setOpenId(null)}
        size="min(420px, 100vw)"
        destroyOnHidden
      >
        {openId && <CustomerProfile customerId={openId} viewer={viewer} />}
      </Drawer>
    </Panel>
  );
}
