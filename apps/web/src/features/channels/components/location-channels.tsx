import { PhoneOutlined, PlusOutlined } from '@ant-design/icons';
import { type ChannelAccountJson, UNKNOWN_LOCATION } from '@switchboard/shared';
import { Alert, Button, Divider, Flex, Popconfirm, Space, Typography } from 'antd';
import { Fragment, lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Panel } from '@/components/panel.tsx';
import { useFormModal } from '@/lib/use-form-modal.ts';
import { useChannels } from '../api/get-channels.ts';
import { useInboundAddress } from '../api/get-inbound-address.ts';
import { usePurchaseNumber } from '../api/purchase-number.ts';
import { ChannelAccountItem } from './channel-account-item.tsx';

const ChannelFormModal = lazy(() => import('./channel-form-modal.tsx'));

type Props = {
  location: { id: string; name: string | null; phone_number: string | null };
  /** Owners connect accounts and buy numbers; everyone sees the inbound email address. */
  canManage: boolean;
};

function InboundEmail({ locationId }: { locationId: string }) {
  const address = useInboundAddress(locationId);
  return (
    <Flex gap={8} wrap align="baseline">
      <Typography.Text type="secondary" style={{ minWidth: 140 }}>
        Inbound email
      </Typography.Text>
      {address.data ? (
        <Typography.Text copyable code>
          {address.data.address}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{address.isError ? 'Not available' : 'Loading…'}</Typography.Text>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12, flexBasis: '100%' }}>
        Forward the location's mailbox to this address, or give it to customers; replies go out by email.
      </Typography.Text>
    </Flex>
  );
}

export function LocationChannels({ location, canManage }: Props) {
  const name = location.name ?? UNKNOWN_LOCATION;
  const channels = useChannels(location.id, { enabled: canManage });
  const purchase = usePurchaseNumber();
  const form = useFormModal<ChannelAccountJson>();

  const openForm = form.show;

  const actions = canManage && (
    <Space wrap>
      <Popconfirm
        title="Get a phone number?"
        description={`A new number is assigned to ${name}; customers can text it.`}
        okText="Get a number"
        onConfirm={() => purchase.mutateAsync(location.id)}
      >
        <Button icon={<PhoneOutlined />} loading={purchase.isPending}>
          Get a number
        </Button>
      </Popconfirm>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
        Connect an account
      </Button>
    </Space>
  );

  const items = channels.data ?? [];
  return (
    <Panel title={name} extra={actions} flush>
      <Flex vertical gap={8} style={{ padding: '16px 24px' }}>
        <Flex gap={8} wrap align="baseline">
          <Typography.Text type="secondary" style={{ minWidth: 140 }}>
            Phone number
          </Typography.Text>
          {location.phone_number ? (
            <Typography.Text copyable>{location.phone_number}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">None yet</Typography.Text>
          )}
        </Flex>
        {purchase.data && (
          <Alert
            type="success"
            showIcon
            title={`New number: ${purchase.data.phone_number}`}
            description={
              purchase.data.provider === 'sandbox'
                ? 'A sandbox number: use the simulator to text it.'
                : 'Bought on your Twilio account and pointed at this inbox.'
            }
          />
        )}
        <InboundEmail locationId={location.id} />
        <Flex gap={8} wrap align="baseline">
          <Typography.Text type="secondary" style={{ minWidth: 140 }}>
            Website chat
          </Typography.Text>
          <Link to={`/settings/widget?location=${location.id}`}>
            Colour, greeting and the code for your website
          </Link>
        </Flex>
      </Flex>
      {canManage && (
        <>
          <Divider style={{ margin: 0 }} />
          {channels.isPending ? (
            <Typography.Paragraph type="secondary" style={{ padding: '16px 24px', margin: 0 }}>
              Loading connected accounts…
            </Typography.Paragraph>
          ) : items.length === 0 ? (
            <Typography.Paragraph type="secondary" style={{ padding: '16px 24px', margin: 0 }}>
              {channels.isError
                ? 'Connected accounts could not be loaded.'
                : 'No accounts connected. Connect Twilio, WhatsApp, Messenger, Instagram or Google RCS to receive their messages here.'}
            </Typography.Paragraph>
          ) : (
            items.map((account, i) => (
              <Fragment key={account.id}>
                {i > 0 && <Divider style={{ margin: 0 }} />}
                <ChannelAccountItem account={account} onEdit={openForm} />
              </Fragment>
            ))
          )}
          {form.used && (
            <Suspense fallback={null}>
              <ChannelFormModal
                open={form.open}
                locationId={location.id}
                locationName={name}
                account={form.editing}
                onClose={form.close}
              />
            </Suspense>
          )}
        </>
      )}
    </Panel>
  );
}
