import { type DbOrTx, invoicePayments, type invoices } from '@switchboard/db';
import {
  formatMoney,
  type InvoiceStatus,
  isCurrencyCode,
  PAYABLE_INVOICE_STATUSES,
  type UnowedReason,
} from '@switchboard/shared';
import { asc, inArray } from 'drizzle-orm';

type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof invoicePayments.$inferSelect;

/** What the customer still has to pay: nothing once paid, or when the invoice cannot be paid. */
export function amountDue(invoice: Pick<InvoiceRow, 'status' | 'total_cents' | 'amount_paid_cents'>): number {
  if (!PAYABLE_INVOICE_STATUSES.includes(invoice.status)) return 0;
  return Math.max(0, invoice.total_cents - invoice.amount_paid_cents);
}

/** What of a payment is owed back to the customer: the part that did not count, less what was refunded. */
export function unowedLeft(p: PaymentRow): number {
  return Math.max(0, p.amount_cents - p.applied_cents - p.refunded_cents);
}

/** What of a payment's counted part has been refunded (refunds go to what was not owed first). */
export function appliedRefunded(p: PaymentRow): number {
  return Math.max(0, p.refunded_cents - (p.amount_cents - p.applied_cents));
}

/** The payments of these invoices, oldest first. */
export async function paymentsOf(db: DbOrTx, invoiceIds: string[]): Promise<PaymentRow[]> {
  if (!invoiceIds.length) return [];
  return db
    .select()
    .from(invoicePayments)
    .where(inArray(invoicePayments.invoice_id, invoiceIds))
    .orderBy(asc(invoicePayments.received_at), asc(invoicePayments.id));
}

/** An invoice's payments that are owed back, as the owner sees them. */
export function needsRefund(payments: PaymentRow[]) {
  return payments
    .filter((p) => unowedLeft(p) > 0)
    .map((p) => ({
      currency: p.currency,
      amount_cents: unowedLeft(p),
      reason: p.unapplied_reason ?? ('overpaid' as const),
      received_at: p.received_at,
    }));
}

/** Why a payment cannot count toward an invoice in this status (null: it is payable). */
function notPayableReason(status: InvoiceStatus): UnowedReason | null {
  switch (status) {
    case 'sent':
    case 'viewed':
    case 'overdue':
    case 'partially_paid':
      return null;
    case 'void':
      return 'void';
    case 'paid':
      return 'already_paid';
    case 'refunded':
    case 'partially_refunded':
      return 'refunded';
    case 'draft':
      return 'not_sent';
  }
}

export type PaymentOutcome = {
  /** The part that counts toward the invoice, in its currency's minor units. */
  applied: number;
  /** Why the rest (or all) does not count; null when all of it counts. */
  reason: UnowedReason | null;
  /** The invoice's paid amount and status after it. */
  paid: number;
  status: InvoiceStatus;
};

/**
 * What a payment does to an invoice, as it is now: in its currency and while it can be paid, it counts up to
 * what is owed (all of it: paid; less: part paid); the rest, or all of it when the invoice is void, refunded,
 * already paid, not sent or in another currency, is recorded as owed back. Never a status for a different sum.
 */
export function applyPayment(
  invoice: Pick<InvoiceRow, 'status' | 'currency' | 'total_cents' | 'amount_paid_cents'>,
  payment: { currency: string; amount: number },
): PaymentOutcome {
  const unchanged = { paid: invoice.amount_paid_cents, status: invoice.status };
  const notPayable = notPayableReason(invoice.status);
  if (notPayable) return { applied: 0, reason: notPayable, ...unchanged };
  if (payment.currency !== invoice.currency) return { applied: 0, reason: 'other_currency', ...unchanged };
  const owed = amountDue(invoice);
  const applied = Math.min(payment.amount, owed);
  const paid = invoice.amount_paid_cents + applied;
  return {
    applied,
    reason: payment.amount > applied ? 'overpaid' : null,
    paid,
    status: paid >= invoice.total_cents ? 'paid' : 'partially_paid',
  };
}

const REASON_TEXT: Record<UnowedReason, string> = {
  void: 'after it was voided',
  refunded: 'after it was refunded',
  already_paid: 'after it was paid in full',
  not_sent: 'before it was sent',
  other_currency: 'in another currency than the invoice',
  overpaid: 'beyond what it owed',
};

/** Money in a currency that may not be ISO (a payment is recorded in whatever Stripe says it was). */
const money = (minor: number, currency: string) =>
  isCurrencyCode(currency) ? formatMoney(minor, currency) : `${minor} ${currency}`;

/** The note written into the conversation when a payment arrives: what it did, and what the owner must do. */
export function paymentNote(
  invoice: Pick<InvoiceRow, 'number' | 'currency' | 'total_cents'>,
  payment: { currency: string; amount: number },
  outcome: PaymentOutcome,
): string {
  const { number, currency, total_cents } = invoice;
  const unowed = payment.amount - outcome.applied;
  const refund =
    unowed > 0
      ? ` ${money(unowed, payment.currency)} arrived ${REASON_TEXT[outcome.reason ?? 'overpaid']}: refund it to the customer.`
      : '';
  if (outcome.applied === 0) return `Invoice ${number}: a payment was not counted.${refund}`;
  if (outcome.status === 'paid') return `Invoice ${number} paid: ${money(outcome.paid, currency)}.${refund}`;
  return `Invoice ${number} part paid: ${money(outcome.paid, currency)} of ${money(total_cents, currency)} (${money(total_cents - outcome.paid, currency)} left).${refund}`;
}
