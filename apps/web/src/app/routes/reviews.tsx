import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { ReviewsPage } from '@/features/reviews/components/reviews-page.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';
import { paths } from '../paths.ts';

export default function ReviewsRoute() {
  const { canManage, business } = useAppSelection();
  const [params] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Reviews"
        subtitle="Ask customers for a review with a tracked link: see who opened it, and remind those who did not, once or twice."
      />
      <ReviewsPage
        canManage={canManage}
        businessName={business.name}
        inboxPath={paths.inbox}
        googleOutcome={params.get('google')}
        focusLocationId={params.get('location')}
      />
    </>
  );
}
