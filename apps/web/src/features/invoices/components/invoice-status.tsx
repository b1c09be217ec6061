import { INVOICE_STATUS_LABELS, type InvoiceJson, type InvoiceStatus } from '@switchboard/shared';
import { Tag, Tooltip, Typography } from 'antd';
import { moneyText } from '@/lib/money.ts';

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

const REASONS: Record<InvoiceJson['needs_refund'][number]['reason'], string> = {
  void: 'paid after the invoice was voided',
  refunded: 'paid after the invoice was refunded',
  already_paid: 'paid after the invoice was paid in full',
  not_sent: 'paid before the invoice was sent',
  other_currency: 'paid in another currency than the invoice',
  overpaid: 'paid beyond the invoice’s total',
};

/** Money the customer paid that the invoice did not owe: the owner is to give it back. */
export function NeedsRefundTag({ invoice }: { invoice: Pick<InvoiceJson, 'needs_refund'> }) {
  if (!invoice.needs_refund.length) return null;
  const amounts = invoice.needs_refund.map((r) => moneyText(r.amount_cents, r.currency)).join(' + ');
  const why = invoice.needs_refund
    .map((r) => `${moneyText(r.amount_cents, r.currency)} ${REASONS[r.reason]}`)
    .join('; ');
  return (
    <Tooltip title={`${why}. Refund it to the customer.`}>
      <Tag color="red">Needs refund: {amounts}</Tag>
    </Tooltip>
  );
}

/** Under a part-paid invoice's total: what was paid of it and what is left. */
export function PaidSoFar({
  invoice,
}: {
  invoice: Pick<InvoiceJson, 'amount_paid_cents' | 'amount_due_cents' | 'total_cents' | 'currency'>;
}) {
  if (invoice.amount_paid_cents === 0 || invoice.amount_due_cents === 0) return null;
  return (
    <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
      Part paid: {moneyText(invoice.amount_paid_cents, invoice.currency)} ·{' '}
      {moneyText(invoice.amount_due_cents, invoice.currency)} left
    </Typography.Text>
  );
}
