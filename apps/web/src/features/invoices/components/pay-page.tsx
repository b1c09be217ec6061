import { CheckCircleFilled, CreditCardOutlined, FilePdfOutlined } from '@ant-design/icons';
import { PAYABLE_INVOICE_STATUSES } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Result, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { isApiError } from '@/lib/api-error.ts';
import { dayText } from '@/lib/dates.ts';
import { failureText } from '@/lib/failure-text.ts';
import { moneyText } from '@/lib/money.ts';
import { invoiceKeys, type PublicInvoiceJson } from '../api.ts';
import { InvoiceDocument } from './invoice-document.tsx';

/** How long the page waits for the payment's confirmation after Checkout sends the customer back. */
const CONFIRM_MS = 60_000;

/**
 * The customer's pay page (`/pay/{secret}`, no login): the invoice in the business's branding, a button to pay
 * by card (Stripe Checkout), the PDF, and the invoice's state in words. Back from Checkout (`?paid=1`) it
 * waits for the payment's confirmation and says so.
 */
export function PayPage({
  secret,
  returned,
  preview,
}: {
  secret: string;
  returned: boolean;
  preview: boolean;
}) {
  const [waitingSince] = useState(() => Date.now());
  const invoice = useQuery({
    queryKey: invoiceKeys.public(secret),
    queryFn: async () =>
      (
        await api.get<Envelope<PublicInvoiceJson>>(
          `/business/invoices/secret/${encodeURIComponent(secret)}`,
          {
            params: preview ? { preview: 1 } : {},
            silent: true,
          },
        )
      ).data.body,
    retry: false,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      const waiting =
        returned &&
        status &&
        PAYABLE_INVOICE_STATUSES.includes(status) &&
        Date.now() - waitingSince < CONFIRM_MS;
      return waiting ? 2000 : false;
    },
  });
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const data = invoice.data;
  useEffect(() => {
    if (data) document.title = `${data.document.title} ${data.number} · ${data.business.name}`;
  }, [data]);

  if (invoice.isPending) return <Skeleton active paragraph={{ rows: 8 }} style={{ maxWidth: 720 }} />;
  if (invoice.isError || !data) {
    const missing = isApiError(invoice.error) && invoice.error.status === 404;
    return (
      <Result
        status={missing ? 'warning' : 'error'}
        title={missing ? 'This invoice link is not valid' : 'The invoice could not be loaded'}
        subTitle={
          missing
            ? 'The link may be incomplete or out of date. Ask the business to send it again.'
            : failureText(invoice.error)
        }
        extra={!missing && <Button onClick={() => void invoice.refetch()}>Try again</Button>}
      />
    );
  }

  const pay = async () => {
    setFailure(null);
    setPaying(true);
    try {
      const { data: res } = await api.post<Envelope<{ url: string }>>(
        `/business/invoices/secret/${encodeURIComponent(secret)}/checkout`,
        {},
        { silent: true },
      );
      window.location.assign(res.body.url);
    } catch (error) {
      setFailure(failureText(error));
      setPaying(false);
    }
  };
  const payable = PAYABLE_INVOICE_STATUSES.includes(data.status) && data.amount_due_cents > 0;
  const due = moneyText(data.amount_due_cents, data.currency);
  const stillConfirming = returned && payable;

  return (
    <Flex vertical gap={16} style={{ width: '100%', maxWidth: 720 }}>
      {data.status === 'paid' && (
        <Alert
          type="success"
          showIcon
          icon={<CheckCircleFilled />}
          title={`Paid${data.paid_at ? ` on ${dayText(data.paid_at, 'short')}` : ''}. Thank you!`}
          description={`${data.business.name} has your payment of ${moneyText(data.amount_paid_cents, data.currency)}.`}
        />
      )}
      {data.status === 'partially_paid' && !stillConfirming && (
        <Alert
          type="warning"
          showIcon
          title={`Part paid: ${moneyText(data.amount_paid_cents, data.currency)} of ${moneyText(data.total_cents, data.currency)}`}
          description={`${due} is left to pay.`}
        />
      )}
      {data.status === 'void' && (
        <Alert
          type="info"
          showIcon
          title="This invoice was cancelled"
          description={`${data.business.name} cancelled it: nothing is owed.`}
        />
      )}
      {(data.status === 'refunded' || data.status === 'partially_refunded') && (
        <Alert
          type="info"
          showIcon
          title={`${moneyText(data.amount_refunded_cents, data.currency)} refunded to your card`}
          description="Refunds usually reach the card within 5–10 business days."
        />
      )}
      {data.status === 'draft' && (
        <Alert
          type="info"
          showIcon
          title="This invoice has not been sent yet"
          description="It is a draft: it cannot be paid until the business sends it."
        />
      )}
      {stillConfirming && (
        <Alert
          type="info"
          showIcon
          title="Thank you, your payment is being confirmed"
          description="This usually takes a few seconds; this page updates by itself."
        />
      )}
      {!stillConfirming && payable && data.last_payment_error && (
        <Alert
          type="error"
          showIcon
          title="Your last payment did not go through"
          description={`${data.last_payment_error} Try again, or use another card.`}
        />
      )}
      <InvoiceDocument invoice={data}>
        <Flex vertical gap={8} className="invdoc-pay">
          {payable && data.can_pay && !stillConfirming && (
            <Button
              type="primary"
              size="large"
              block
              icon={<CreditCardOutlined />}
              loading={paying}
              onClick={() => void pay()}
              style={{ background: data.branding.accent_color }}
            >
              Pay {due}
            </Button>
          )}
          {payable && !data.can_pay && (
            <Typography.Text type="secondary">
              Card payment is not available for this invoice yet. Contact {data.business.name} to pay.
            </Typography.Text>
          )}
          {failure && <Alert type="error" showIcon title={failure} role="alert" />}
          <Button icon={<FilePdfOutlined />} href={data.pdf_url} target="_blank" rel="noreferrer">
            Download PDF
          </Button>
        </Flex>
      </InvoiceDocument>
      <Typography.Text type="secondary" style={{ textAlign: 'center', fontSize: 12 }}>
        Payments are processed securely by Stripe. {data.business.name} never sees your card number.
      </Typography.Text>
    </Flex>
  );
}
