import { SUBSCRIPTION_SETTINGS_PATH } from '@switchboard/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, type Envelope } from '@/lib/api-client.ts';
import { failureText } from '@/lib/failure-text.ts';
import { type SandboxPortalAction, type SubscriptionView, sandboxPortal, subscriptionKeys } from '../api.ts';

const ACTIONS: { action: SandboxPortalAction; label: string; what: string; danger?: boolean }[] = [
  { action: 'cancel', label: 'Cancel at the end of the period', what: 'As cancelling in Stripe’s portal.' },
  {
    action: 'resume',
    label: 'Resume the subscription',
    what: 'Undoes a cancellation before the period ends.',
  },
  {
    action: 'fail_payment',
    label: 'Make the next payment fail',
    what: 'As a declined card: Stripe retries in 3 days.',
  },
  { action: 'pay', label: 'Pay now', what: 'As a new card that works: the failed payment goes through.' },
  {
    action: 'end',
    label: 'End the subscription now',
    what: 'As Stripe ending it after the last retry.',
    danger: true,
  },
];

/** The sandbox's stand-in for Stripe's customer portal: each button sends the events Stripe would. */
export function SandboxPortal() {
  const queryClient = useQueryClient();
  const view = useQuery({
    queryKey: ['sandbox-billing-portal'],
    queryFn: async () =>
      (await api.get<Envelope<SubscriptionView>>('/sandbox/billing-portal', { silent: true })).data.body,
    retry: false,
  });
  const [busy, setBusy] = useState<SandboxPortalAction | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (view.isPending) return <Skeleton active />;
  if (view.isError)
    return (
      <Result
        status="warning"
        title="The sandbox portal is not available"
        subTitle={failureText(view.error)}
      />
    );

  async function run(action: SandboxPortalAction, label: string) {
    setBusy(action);
    setFailure(null);
    setDone(null);
    try {
      queryClient.setQueryData(['sandbox-billing-portal'], await sandboxPortal(action));
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.view });
      setDone(`${label}: done. Stripe’s events were sent to Switchboard.`);
    } catch (e) {
      setFailure(failureText(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card style={{ maxWidth: 560 }}>
      <Flex vertical gap={16}>
        <Alert type="info" showIcon title="Sandbox billing portal: nothing is charged." />
        <Typography.Paragraph style={{ margin: 0 }}>
          Plan: <strong>{view.data.plan}</strong> · status:{' '}
          <strong>{view.data.status.replaceAll('_', ' ')}</strong>
        </Typography.Paragraph>
        {failure && <Alert type="error" showIcon title={failure} role="alert" />}
        {done && <Alert type="success" showIcon title={done} />}
        {ACTIONS.map((a) => (
          <Flex key={a.action} justify="space-between" align="center" gap={12} wrap>
            <Typography.Text type="secondary" style={{ flex: '1 1 200px' }}>
              {a.what}
            </Typography.Text>
            <Button
              danger={a.danger}
              loading={busy === a.action}
              disabled={busy !== null}
              onClick={() => run(a.action, a.label)}
            >
              {a.label}
            </Button>
          </Flex>
        ))}
        <Link to={SUBSCRIPTION_SETTINGS_PATH}>Back to Settings → Subscription</Link>
      </Flex>
    </Card>
  );
}
