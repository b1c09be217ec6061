import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { PaymentsSettings } from '@/features/invoices/components/payments-settings.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function PaymentsRoute() {
  const { business } = useAppSelection();
  const [params] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Payments & invoices"
        subtitle="Take card payments through Stripe, set a card surcharge, and choose how your invoices look and when reminders go."
      />
      <PaymentsSettings businessName={business.name} returned={params.get('stripe') === 'return'} />
    </>
  );
}
