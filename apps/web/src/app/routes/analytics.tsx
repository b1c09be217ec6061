import { PageHeader } from '@/components/page-header.tsx';
import { setAnalyticsBase } from '@/features/analytics/api.ts';
import { AnalyticsPage } from '@/features/analytics/components/analytics-page.tsx';
import { usePublicConfig } from '@/features/sandbox/api/get-public-config.ts';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function AnalyticsRoute() {
  const { business, me } = useAppSelection();
  const config = usePublicConfig();
  // Set before the page's reports are asked for (an effect here would run after theirs).
  if (config.data) setAnalyticsBase(config.data.analytics_url);
  return (
    <>
      <PageHeader
        title="Analytics"
        subtitle="Where enquiries and calls come from, and how fast your team answers, against the period before."
      />
      {config.isPending ? null : (
        <AnalyticsPage
          locations={business.locations}
          businessTimezone={business.timezone}
          features={me.feature_flags}
        />
      )}
    </>
  );
}
