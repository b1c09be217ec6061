import { Alert, Flex } from 'antd';
import { PageHeader } from '@/components/page-header.tsx';
import { LocationChannels } from '@/features/channels/components/location-channels.tsx';
import { FormWebhooks } from '@/features/forms/components/form-webhooks.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function ChannelsRoute() {
  const { business, canManage } = useAppSelection();
  return (
    <>
      <PageHeader
        title="Channels & forms"
        subtitle="Connect the accounts customers message you on, and the forms on your website."
      />
      <Flex vertical gap={24}>
        {!canManage && (
          <Alert
            type="info"
            showIcon
            title="Only the business owner can connect channels, get numbers or change form addresses."
          />
        )}
        {business.locations.map((location) => (
          <LocationChannels key={location.id} location={location} canManage={canManage} />
        ))}
        {canManage && <FormWebhooks locations={business.locations} />}
      </Flex>
    </>
  );
}
