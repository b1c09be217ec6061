import { INVOICE_STATUS_LABELS, type InvoiceStatus } from '@switchboard/shared';
import { Tag } from 'antd';

const COLOURS: Record<InvoiceStatus, string> = {
  draft: 'default',
  sent: 'blue',
  viewed: 'geekblue',
  partially_paid: 'gold',
  paid: 'green',
  partially_refunded: 'orange',
  refunded: 'purple',
  void: 'default',
  overdue: 'red',
};

export function InvoiceStatusTag({ status }: { status: InvoiceStatus }) {
  return <Tag color={COLOURS[status]}>{INVOICE_STATUS_LABELS[status]}</Tag>;
}
