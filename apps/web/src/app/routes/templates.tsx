import { useQueryClient } from '@tanstack/react-query';
import { Alert, Flex } from 'antd';
import { PageHeader } from '@/components/page-header.tsx';
import { inboxKeys } from '@/features/inbox/api/query-keys.ts';
import { TemplatesPanel } from '@/features/templates/components/templates-panel.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

/** Every enquiry's filled-in templates, as the composer caches them (inboxKeys.templates). */
const composerTemplatesKey = [...inboxKeys.all, 'templates'] as const;

export default function TemplatesRoute() {
  const { business, location, canManage } = useAppSelection();
  const queryClient = useQueryClient();
  return (
    <>
      <PageHeader
        title="Message templates"
        subtitle="Ready-made replies your team inserts from the inbox, with each customer’s name and your details filled in."
      />
      <Flex vertical gap={24}>
        {!canManage && (
          <Alert type="info" showIcon title="Only the business owner can change message templates." />
        )}
        <TemplatesPanel
          canManage={canManage}
          business={business}
          locations={business.locations}
          currentLocationId={location?.id ?? null}
          // The inbox offers the new wording at once, not when its cached copy goes stale.
          onChange={() => void queryClient.invalidateQueries({ queryKey: composerTemplatesKey })}
        />
      </Flex>
    </>
  );
}
