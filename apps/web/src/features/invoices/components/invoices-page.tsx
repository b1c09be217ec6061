import { DownloadOutlined, EllipsisOutlined, FilePdfOutlined, LinkOutlined } from '@ant-design/icons';
import {
  INVOICE_STATUS_LABELS,
  INVOICE_STATUSES,
  type InvoiceStatus,
  minorUnits,
  toMajorUnits,
  toMinorUnits,
} from '@switchboard/shared';
import {
  Alert,
  Button,
  Dropdown,
  Empty,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import {
  exportUrl,
  type InvoiceJson,
  invoicePdfUrl,
  useBranding,
  useDeleteInvoice,
  useInvoices,
  useLiveInvoices,
  useRefundInvoice,
  useRefundUnowed,
  useSendInvoice,
  useVoidInvoice,
} from '../api.ts';
import { InvoiceEditor } from './invoice-editor.tsx';
import { InvoiceStatusTag, NeedsRefundTag, PaidSoFar } from './invoice-status.tsx';
import './invoices.css';
import { SearchField } from '@/components/search-field.tsx';
import { dayText } from '@/lib/dates.ts';
import { moneyText } from '@/lib/money.ts';

type Filters = { status?: InvoiceStatus; q?: string; start_date?: string; end_date?: string; page: number };

const day = (iso: string) => dayText(iso, 'short');

/** Refund all that is left or part of it: the amount is asked first. */
function RefundDialog({ invoice, onClose }: { invoice: InvoiceJson; onClose: () => void }) {
  const left = invoice.amount_paid_cents - invoice.amount_refunded_cents;
  const { currency } = invoice;
  const [amount, setAmount] = useState<number | null>(toMajorUnits(left, currency));
  const [failure, setFailure] = useState<string | null>(null);
  const refund = useRefundInvoice();
  const submit = async () => {
    setFailure(null);
    try {
      const minor = toMinorUnits(amount ?? 0, currency);
      const done = await refund.mutateAsync({ id: invoice.id, amount_cents: minor });
      notify.success(`${moneyText(minor, done.currency)} of ${done.number} refunded.`);
      onClose();
    } catch (error) {
      setFailure(failureText(error));
    }
  };
  return (
    <Modal
      open
      title={`Refund ${invoice.number}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="Refund"
      okButtonProps={{ danger: true, loading: refund.isPending, disabled: !amount || amount <= 0 }}
    >
      <Typography.Paragraph>
        Up to {moneyText(left, invoice.currency)} can be refunded to the customer's card.
      </Typography.Paragraph>
      <InputNumber
        aria-label="Amount to refund"
        prefix={currency}
        min={toMajorUnits(1, currency)}
        max={toMajorUnits(left, currency)}
        precision={minorUnits(currency)}
        value={amount}
        onChange={setAmount}
        style={{ width: 200 }}
      />
      {failure && <Alert type="error" showIcon title={failure} role="alert" style={{ marginTop: 12 }} />}
    </Modal>
  );
}

/**
 * Every invoice of the business: filtered by status, dates and text, a page at a time, kept live (a payment
 * shows as it happens), with the CSV of the same filters, and what can be done with each.
 */
export function InvoicesPage({ canManage }: { canManage: boolean }) {
  useLiveInvoices();
  const [filters, setFilters] = useState<Filters>({ page: 1 });
  const query = { ...filters, page_size: 20 };
  const invoices = useInvoices(query);
  const branding = useBranding();
  const [editing, setEditing] = useState<InvoiceJson | null>(null);
  const [refunding, setRefunding] = useState<InvoiceJson | null>(null);
  const send = useSendInvoice();
  const voiding = useVoidInvoice();
  const remove = useDeleteInvoice();
  const refundUnowed = useRefundUnowed();
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch, page: patch.page ?? 1 }));

  const act = async (label: string, run: () => Promise<unknown>) => {
    try {
      await run();
      notify.success(label);
    } catch {
      // The API client has already said what went wrong.
    }
  };

  const actionsFor = (inv: InvoiceJson) => {
    const unpaid = inv.amount_paid_cents === 0 && inv.status !== 'void';
    const sendable = inv.status === 'draft' || inv.amount_due_cents > 0;
    const items = [
      {
        key: 'pay',
        icon: <LinkOutlined />,
        label: (
          <a href={`${inv.pay_url}?preview=1`} target="_blank" rel="noreferrer">
            Open the pay page
          </a>
        ),
      },
      { key: 'pdf', icon: <FilePdfOutlined />, label: <a href={invoicePdfUrl(inv.id)}>Download PDF</a> },
      ...(unpaid ? [{ key: 'edit', label: 'Edit' }] : []),
      ...(sendable ? [{ key: 'send', label: inv.status === 'draft' ? 'Send' : 'Send again' }] : []),
      ...(canManage && unpaid && inv.status !== 'draft'
        ? [{ key: 'void', label: 'Void', danger: true }]
        : []),
      ...(inv.status === 'draft' ? [{ key: 'delete', label: 'Delete draft', danger: true }] : []),
      ...(canManage && inv.amount_paid_cents > inv.amount_refunded_cents
        ? [{ key: 'refund', label: 'Refund…', danger: true }]
        : []),
      ...(canManage && inv.needs_refund.length > 0
        ? [{ key: 'refund-unowed', label: 'Refund what it did not owe…', danger: true }]
        : []),
    ];
    const onClick = ({ key }: { key: string }) => {
      if (key === 'edit') setEditing(inv);
      if (key === 'refund') setRefunding(inv);
      if (key === 'send') void act(`${inv.number} sent.`, () => send.mutateAsync({ id: inv.id }));
      if (key === 'void')
        Modal.confirm({
          title: `Void ${inv.number}?`,
          content: 'The customer can no longer pay it. Its number is kept.',
          okText: 'Void',
          okButtonProps: { danger: true },
          onOk: () => act(`${inv.number} is void.`, () => voiding.mutateAsync(inv.id)),
        });
      if (key === 'delete') void act(`${inv.number} deleted.`, () => remove.mutateAsync(inv.id));
      if (key === 'refund-unowed')
        Modal.confirm({
          title: `Refund what ${inv.number} did not owe?`,
          content: `${inv.needs_refund.map((r) => moneyText(r.amount_cents, r.currency)).join(' and ')} goes back to the customer's card.`,
          okText: 'Refund',
          okButtonProps: { danger: true },
          onOk: () =>
            act(`What ${inv.number} did not owe was refunded.`, () => refundUnowed.mutateAsync(inv.id)),
        });
    };
    return (
      <Dropdown trigger={['click']} menu={{ items, onClick }}>
        <Button type="text" icon={<EllipsisOutlined />} aria-label={`Actions for ${inv.number}`} />
      </Dropdown>
    );
  };

  const columns: TableColumnsType<InvoiceJson> = [
    {
      key: 'number',
      title: 'Invoice',
      render: (_, inv) => (
        <Space size={8} wrap>
          <Typography.Text strong>{inv.number}</Typography.Text>
          <InvoiceStatusTag status={inv.status} />
          <NeedsRefundTag invoice={inv} />
        </Space>
      ),
    },
    { key: 'customer', title: 'Customer', render: (_, inv) => inv.bill_to ?? '—' },
    {
      key: 'total',
      title: 'Total',
      align: 'right',
      render: (_, inv) => (
        <span style={{ fontVariantNumeric: 'tabular-nums' }}>
          {moneyText(inv.total_cents, inv.currency)}
          <PaidSoFar invoice={inv} />
        </span>
      ),
    },
    { key: 'issued', title: 'Issued', render: (_, inv) => day(inv.sent_at ?? inv.created_at) },
    {
      key: 'due',
      title: 'Due',
      render: (_, inv) =>
        inv.paid_at ? `Paid ${day(inv.paid_at)}` : inv.due_date ? day(`${inv.due_date}T12:00:00`) : '—',
    },
    {
      key: 'actions',
      title: <span className="sr-only">Actions</span>,
      width: 56,
      render: (_, inv) => actionsFor(inv),
    },
  ];
  const responsive = useResponsiveColumns(columns, 720);

  return (
    <Panel>
      <div className="inv-page-filters">
        <Select
          aria-label="Status"
          placeholder="Any status"
          allowClear
          style={{ width: 170 }}
          value={filters.status}
          onChange={(status) => set({ status })}
          options={INVOICE_STATUSES.map((s) => ({ value: s, label: INVOICE_STATUS_LABELS[s] }))}
        />
        <SearchField
          aria-label="Search invoices"
          placeholder="Number, customer or item"
          allowClear
          style={{ width: 260, maxWidth: '100%' }}
          onSearch={(q) => set({ q: q.trim() || undefined })}
        />
        <Input
          type="date"
          aria-label="Issued from"
          prefix={<span className="inv-date-label">From</span>}
          style={{ width: 200 }}
          value={filters.start_date ?? ''}
          onChange={(e) => set({ start_date: e.target.value || undefined })}
        />
        <Input
          type="date"
          aria-label="Issued until"
          prefix={<span className="inv-date-label">Until</span>}
          style={{ width: 200 }}
          value={filters.end_date ?? ''}
          onChange={(e) => set({ end_date: e.target.value || undefined })}
        />
        <Button icon={<DownloadOutlined />} href={exportUrl(query)} download="invoices.csv">
          Export CSV
        </Button>
      </div>
      {invoices.isError && (
        <Alert type="error" showIcon title={failureText(invoices.error)} style={{ marginBottom: 16 }} />
      )}
      <Table<InvoiceJson>
        rowKey="id"
        loading={invoices.isFetching && !invoices.data}
        dataSource={invoices.data?.items ?? []}
        {...responsive}
        pagination={{
          current: filters.page,
          pageSize: 20,
          total: invoices.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (page) => setFilters((f) => ({ ...f, page })),
          hideOnSinglePage: true,
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                filters.status || filters.q || filters.start_date || filters.end_date
                  ? 'No invoices match these filters.'
                  : 'No invoices yet. Send one from a conversation with the Invoice button under the reply box.'
              }
            />
          ),
        }}
      />
      {editing && (
        <InvoiceEditor
          open
          onClose={() => setEditing(null)}
          invoice={editing}
          currency={branding.data?.currency ?? editing.currency}
          surchargeBps={editing.surcharge_bps}
        />
      )}
      {refunding && <RefundDialog invoice={refunding} onClose={() => setRefunding(null)} />}
    </Panel>
  );
}
