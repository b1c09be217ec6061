import { ExperimentOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Input, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { failureText } from '@/lib/failure-text.ts';
import { moneyText } from '@/lib/money.ts';

type Session = {
  id: string;
  business_name: string;
  number: string;
  currency: string;
  total_cents: number;
  status: 'open' | 'complete';
};

/**
 * The sandbox's stand-in for Stripe Checkout: no card is charged. Pay or decline; the server then sends itself
 * the same signed webhook Stripe would, and the customer goes back to the pay page.
 */
export function SandboxCheckout({ id }: { id: string }) {
  const session = useQuery({
    queryKey: ['sandbox-checkout', id],
    queryFn: async () =>
      (await api.get<Envelope<Session>>(`/sandbox/checkout/${encodeURIComponent(id)}`, { silent: true })).data
        .body,
    retry: false,
  });
  const [busy, setBusy] = useState<'pay' | 'decline' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (session.isPending) return <Skeleton active />;
  if (session.isError)
    return (
      <Result status="warning" title="This payment page is not valid" subTitle={failureText(session.error)} />
    );
  const s = session.data;
  const finish = async (outcome: 'pay' | 'decline') => {
    setFailure(null);
    setBusy(outcome);
    try {
      const { data } = await api.post<Envelope<{ redirect_url: string }>>(
        `/sandbox/checkout/${encodeURIComponent(id)}`,
        { outcome },
        { silent: true },
      );
      window.location.assign(data.body.redirect_url);
    } catch (error) {
      setFailure(failureText(error));
      setBusy(null);
    }
  };
  return (
    <Flex vertical gap={16}>
      <Alert
        type="warning"
        showIcon
        icon={<ExperimentOutlined />}
        title="Sandbox payment page"
        description="Switchboard is in sandbox mode: no card is charged. Choose how this payment turns out."
      />
      <div>
        <Typography.Text type="secondary">{s.business_name}</Typography.Text>
        <Typography.Title level={3} style={{ margin: '4px 0' }}>
          {moneyText(s.total_cents, s.currency)}
        </Typography.Title>
        <Typography.Text>Invoice {s.number}</Typography.Text>
      </div>
      {s.status === 'complete' ? (
        <Alert type="success" showIcon title="This invoice has been paid." />
      ) : (
        <>
          <Input aria-label="Card number" value="4242 4242 4242 4242" readOnly />
          <Button
            type="primary"
            size="large"
            block
            loading={busy === 'pay'}
            disabled={busy !== null}
            onClick={() => void finish('pay')}
          >
            Pay {moneyText(s.total_cents, s.currency)}
          </Button>
          <Button
            block
            danger
            loading={busy === 'decline'}
            disabled={busy !== null}
            onClick={() => void finish('decline')}
          >
            Decline the card
          </Button>
        </>
      )}
      {failure && <Alert type="error" showIcon title={failure} role="alert" />}
    </Flex>
  );
}
