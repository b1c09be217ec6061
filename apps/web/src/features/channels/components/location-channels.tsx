import { PhoneOutlined, PlusOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { type ChannelAccountJson, UNKNOWN_LOCATION } from '@switchboard/shared';
import { Alert, Button, Divider, Flex, Popconfirm, Space, Tag, Typography } from 'antd';
import { Fragment, lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Panel } from '@/components/panel.tsx';
import { phoneText } from '@/lib/phones.ts';
import { useFormModal } from '@/lib/use-form-modal.ts';
import { useChannels } from '../api/get-channels.ts';
import { usePlatformNumbers } from '../api/get-platform-numbers.ts';
import { useReach } from '../api/get-reach.ts';
import { usePurchaseNumber } from '../api/purchase-number.ts';
import { ChannelAccountItem } from './channel-account-item.tsx';
import { PlatformNumbers } from './platform-numbers.tsx';

const ChannelFormModal = lazy(() => import('./channel-form-modal.tsx'));
const BuyNumberModal = lazy(() => import('./buy-number-modal.tsx'));

type Props = {
  location: { id: string; name: string | null; phone_number: string | null };
  /** Owners connect accounts and buy numbers; everyone sees the inbound email address. */
  canManage: boolean;
};

/**
 * Every number and address customers reach this location on (from its connected channels), and which one
 * each new conversation starts from: the one place these are listed.
 */
function Reach({ locationId }: { locationId: string }) {
  const reach = useReach(locationId);
  if (reach.isPending) return <Typography.Text type="secondary">Loading…</Typography.Text>;
  if (reach.isError)
    return (
      <Typography.Text type="danger">How customers reach this location could not be loaded.</Typography.Text>
    );
  return (
    <section aria-label="How customers reach this location">
      <Typography.Text strong>How customers reach this location</Typography.Text>
      <ul
        style={{
          listStyle: 'none',
          padding: 0,
          margin: '8px 0 0',
          display: 'flex',
          flexDirection: 'column',
          gap: 10,
        }}
      >
        {reach.data.items.map((item) => (
          <li key={`${item.label}:${item.address}`}>
            <Flex gap={8} wrap align="baseline">
              <Typography.Text type="secondary" style={{ minWidth: 120 }}>
                {item.label}
              </Typography.Text>
              <Typography.Text copyable={item.channel !== 'widget'} style={{ overflowWrap: 'anywhere' }}>
                {item.address}
              </Typography.Text>
              <Tag>{item.via}</Tag>
              {item.starts_conversations && <Tag color="blue">Starts new conversations</Tag>}
            </Flex>
            {item.note && (
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                {item.note}
              </Typography.Text>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LocationChannels({ location, canManage }: Props) {
  const name = location.name ?? UNKNOWN_LOCATION;
  const channels = useChannels(location.id, { enabled: canManage });
  const purchase = usePurchaseNumber();
  const form = useFormModal<ChannelAccountJson>();
  const numbers = usePlatformNumbers(location.id, { enabled: canManage });
  const [buying, setBuying] = useState(false);
  const [buyUsed, setBuyUsed] = useState(false);

  const openForm = form.show;
  const platform = numbers.data?.available === true;
  const held = numbers.data?.items ?? [];
  const ownTwilio = (channels.data ?? []).some(
    (a) => a.provider === 'twilio' && !held.some((n) => n.phone_number === a.address),
  );
  // Without the platform account a number comes from the location's own Twilio account (or the sandbox).
  const getNumber = held.length === 0 && (!platform || numbers.data?.sandbox === true || ownTwilio);

  const actions = canManage && (
    <Space wrap>
      {platform && (
        <Button
          icon={<ShoppingCartOutlined />}
          onClick={() => {
            setBuyUsed(true);
            setBuying(true);
          }}
        >
          Buy a number
        </Button>
      )}
      {getNumber && (
        <Popconfirm
          title="Get a phone number?"
          description={
            numbers.data?.sandbox && !ownTwilio
              ? `A sandbox number for ${name}: text and call it from the sandbox phone to try Switchboard. It is not a real number${platform ? '; buy one for customers to text' : ''}.`
              : `A new number is assigned to ${name}; customers can text it.`
          }
          okText="Get a number"
          onConfirm={() => purchase.mutateAsync(location.id)}
        >
          <Button icon={<PhoneOutlined />} loading={purchase.isPending}>
            Get a number
          </Button>
        </Popconfirm>
      )}
      <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
        Connect an account
      </Button>
    </Space>
  );

  const items = channels.data ?? [];
  return (
    <Panel title={name} extra={actions} flush id={`location-${location.id}`}>
      <Flex vertical gap={8} style={{ padding: '16px 24px' }}>
        {purchase.data && (
          <Alert
            type="success"
            showIcon
            title={`New number: ${phoneText(purchase.data.phone_number)}`}
            description={
              purchase.data.provider === 'sandbox'
                ? 'A sandbox number: use the simulator to text it.'
                : 'Bought on your Twilio account and pointed at this inbox.'
            }
          />
        )}
        <Reach locationId={location.id} />
        <Link to={`/settings/widget?location=${location.id}`}>
          Website chat: colour, greeting and the code for your website
        </Link>
      </Flex>
      {canManage && (
        <>
          <Divider style={{ margin: 0 }} />
          <PlatformNumbers items={held} />
          {held.length > 0 && <Divider style={{ margin: 0 }} />}
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
          {buyUsed && (
            <Suspense fallback={null}>
              <BuyNumberModal
                open={buying}
                locationId={location.id}
                locationName={name}
                onClose={() => setBuying(false)}
              />
            </Suspense>
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
