import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { SubscriptionPage } from '@/features/subscription/components/subscription-page.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function SubscriptionRoute() {
  const { canManage } = useAppSelection();
  const [params] = useSearchParams();
  const checkout = params.get('checkout');
  return (
    <>
      <PageHeader
        title="Subscription"
        subtitle="Your plan, today's messages against the daily limit, and billing."
      />
      <SubscriptionPage
        canManage={canManage}
        returned={checkout === 'done' || checkout === 'cancelled' ? checkout : null}
      />
    </>
  );
}
