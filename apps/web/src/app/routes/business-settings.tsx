import { PageHeader } from '@/components/page-header.tsx';
import { BusinessProfileForm } from '@/features/business/components/business-profile-form.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function BusinessSettingsRoute() {
  const { business, canManage } = useAppSelection();
  return (
    <>
      <PageHeader title="Business profile" subtitle="How your business appears to customers and your team." />
      <BusinessProfileForm business={business} canManage={canManage} />
    </>
  );
}
