import { DollarOutlined, FilePdfOutlined, LinkOutlined, PlusOutlined } from '@ant-design/icons';
import { PAYABLE_INVOICE_STATUSES } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Empty, Flex, List, Modal, Skeleton, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { dayText } from '@/lib/dates.ts';
import { failureText } from '@/lib/failure-text.ts';
import { moneyText } from '@/lib/money.ts';
import { type InvoiceJson, invoicePdfUrl, useBranding, useEnquiryInvoices, useLiveInvoices } from '../api.ts';
import { InvoiceEditor } from './invoice-editor.tsx';
import { InvoiceStatusTag, NeedsRefundTag, PaidSoFar } from './invoice-status.tsx';

type Enquiry = { id: string; location_id: string; customer: { name: string | null } };

/** The location's card surcharge, as the invoices written here will carry it. */
function useSurchargeBps(locationId: string): number {
  const { data } = useQuery({
    queryKey: ['locations', 'detail', locationId],
    queryFn: async () =>
      (
        await api.get<Envelope<{ card_surcharge: { enabled: boolean; rate_bps: number } }>>(
          `/business/locations/${encodeURIComponent(locationId)}`,
        )
      ).data.body,
  });
  return data?.card_surcharge.enabled ? data.card_surcharge.rate_bps : 0;
}

/**
 * The composer's Invoice button: the conversation's invoices (their state, pay link and PDF) and a new one,
 * written and sent without leaving the conversation.
 */
export default function ConversationInvoices({ enquiry }: { enquiry: Enquiry }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<InvoiceJson | 'new' | null>(null);
  useLiveInvoices();
  const invoices = useEnquiryInvoices(enquiry.id);
  const branding = useBranding();
  const surcharge = useSurchargeBps(enquiry.location_id);
  const unpaid = (invoices.data ?? []).filter((i) => PAYABLE_INVOICE_STATUSES.includes(i.status)).length;
  return (
    <>
      <Tooltip title="Invoices in this conversation">
        <Button type="text" icon={<DollarOutlined />} aria-label="Invoice" onClick={() => setOpen(true)}>
          <span className="ib-bar-label">
            Invoice{' '}
            {unpaid > 0 && <Badge count={unpaid} size="small" color="blue" aria-label={`${unpaid} unpaid`} />}
          </span>
        </Button>
      </Tooltip>
      <Modal
        open={open}
        onCancel={() => setOpen(false)}
        title="Invoices"
        footer={null}
        width={560}
        destroyOnHidden
      >
        <Flex vertical gap={12}>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            style={{ alignSelf: 'flex-start' }}
          >
            New invoice
          </Button>
          {invoices.isPending ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : invoices.isError ? (
            <Typography.Text type="danger">{failureText(invoices.error)}</Typography.Text>
          ) : invoices.data.length === 0 ? (
            <Empty description="No invoices in this conversation yet." image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <List
              dataSource={invoices.data}
              renderItem={(inv) => (
                <List.Item
                  actions={[
                    <Tooltip title="Open the pay page" key="pay">
                      <Button
                        type="text"
                        icon={<LinkOutlined />}
                        href={`${inv.pay_url}?preview=1`}
                        target="_blank"
                        aria-label={`Open the pay page of ${inv.number}`}
                      />
                    </Tooltip>,
                    <Tooltip title="Download the PDF" key="pdf">
                      <Button
                        type="text"
                        icon={<FilePdfOutlined />}
                        href={invoicePdfUrl(inv.id)}
                        aria-label={`Download ${inv.number} as PDF`}
                      />
                    </Tooltip>,
                  ]}
                >
                  <List.Item.Meta
                    title={
                      <Flex gap={8} align="center" wrap>
                        {inv.amount_paid_cents === 0 && inv.status !== 'void' ? (
                          <Typography.Link onClick={() => setEditing(inv)}>{inv.number}</Typography.Link>
                        ) : (
                          <span>{inv.number}</span>
                        )}
                        <InvoiceStatusTag status={inv.status} />
                        <NeedsRefundTag invoice={inv} />
                      </Flex>
                    }
                    description={
                      <>
                        {`${moneyText(inv.total_cents, inv.currency)}${inv.due_date ? ` · due ${dayText(inv.due_date, 'short')}` : ''}`}
                        <PaidSoFar invoice={inv} />
                      </>
                    }
                  />
                </List.Item>
              )}
            />
          )}
        </Flex>
      </Modal>
      {editing && (
        <InvoiceEditor
          open
          onClose={() => setEditing(null)}
          enquiryId={enquiry.id}
          customerName={enquiry.customer.name}
          invoice={editing === 'new' ? null : editing}
          currency={branding.data?.currency ?? 'AUD'}
          surchargeBps={surcharge}
        />
      )}
    </>
  );
}
