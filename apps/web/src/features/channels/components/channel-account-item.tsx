import { DeleteOutlined, EditOutlined, PhoneOutlined } from '@ant-design/icons';
import type { ChannelAccountJson } from '@switchboard/shared';
import { Alert, Button, Descriptions, Flex, Popconfirm, Space, Tag, Typography } from 'antd';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import { phoneText } from '@/lib/phones.ts';
import { useDeleteChannel } from '../api/delete-channel.ts';
import { useSetUpCalling } from '../api/set-up-calling.ts';
import { PROVIDER_FIELDS, PROVIDER_NAMES, WEBHOOK_HINTS, WEBHOOK_LABELS } from '../types.ts';

type Props = { account: ChannelAccountJson; onEdit: (account: ChannelAccountJson) => void };

const shown = (value: unknown) => (typeof value === 'string' && value ? value : '—');

export function ChannelAccountItem({ account, onEdit }: Props) {
  const remove = useDeleteChannel();
  const name = PROVIDER_NAMES[account.provider];
  const webhooks = Object.entries(account.webhooks);

  return (
    <article aria-label={`${name} account`} style={{ padding: '16px 24px' }}>
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 12 }}>
        <Space size={8} wrap>
          <Typography.Text strong>{name}</Typography.Text>
          {account.address && <Typography.Text type="secondary">{account.address}</Typography.Text>}
          {account.channels.map((c) => (
            <Tag key={c}>{c}</Tag>
          ))}
          {account.disconnected_at ? (
            <Tag color="error">Disconnected</Tag>
          ) : account.verified_at ? (
            <Tag color="green">Confirmed by {name}</Tag>
          ) : null}
        </Space>
        <Space size={4}>
          <Button icon={<EditOutlined />} onClick={() => onEdit(account)}>
            Edit
          </Button>
          <Popconfirm
            title={`Disconnect ${name}?`}
            description="Messages on this account stop arriving here, and replies can no longer be sent through it."
            okText="Disconnect"
            okButtonProps={{ danger: true, loading: remove.isPending }}
            onConfirm={() =>
              remove.mutateAsync(account.id).then(() => notify.success(`${name} disconnected`))
            }
          >
            <Button danger icon={<DeleteOutlined />}>
              Disconnect
            </Button>
          </Popconfirm>
        </Space>
      </Flex>
      {account.problem && (
        <Alert type="error" showIcon title={account.problem} style={{ marginBottom: 12 }} />
      )}
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        items={PROVIDER_FIELDS[account.provider].map((field) => ({
          key: field.name,
          label: field.label,
          children: (
            <Typography.Text code={field.secret} style={{ wordBreak: 'break-all' }}>
              {shown(account.config[field.name])}
            </Typography.Text>
          ),
        }))}
      />
      {account.provider === 'twilio' && <Calling account={account} />}
      <Flex vertical gap={4} style={{ marginTop: 12 }}>
        {webhooks.map(([key, url]) => (
          <Flex key={key} gap={8} wrap align="baseline">
            <Typography.Text type="secondary" style={{ minWidth: 140 }}>
              {WEBHOOK_LABELS[key] ?? key}
            </Typography.Text>
            <Typography.Text copyable={{ text: url }} code style={{ wordBreak: 'break-all' }}>
              {url}
            </Typography.Text>
          </Flex>
        ))}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {WEBHOOK_HINTS[account.provider]}
        </Typography.Text>
      </Flex>
    </article>
  );
}

/**
 * Calls on the location's Twilio number: one button makes what calling needs at Twilio (a TwiML App, an API
 * Key) and points the number's calls here; pressed again it checks and repairs the same things.
 */
function Calling({ account }: { account: ChannelAccountJson }) {
  const setUp = useSetUpCalling();
  const ready = Boolean(account.config.twiml_app_sid && account.config.api_key_sid);
  const number = typeof account.config.phone_number === 'string' ? account.config.phone_number : null;
  return (
    <section aria-label="Calling" style={{ marginTop: 12 }}>
      <Flex gap={8} align="center" wrap>
        <Typography.Text strong>Calls</Typography.Text>
        {ready ? <Tag color="green">Set up</Tag> : <Tag>Not set up</Tag>}
        <Button
          icon={<PhoneOutlined />}
          loading={setUp.isPending}
          disabled={!number}
          onClick={() =>
            setUp.mutate(account.id, {
              onSuccess: (done) =>
                notify.success(`Calling set up: ${phoneText(done.phone_number)} now rings here`),
            })
          }
        >
          {ready ? 'Set up calling again' : 'Set up calling'}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 0' }}>
        {number
          ? `Customers who ring ${number} reach the team's browsers (voicemail when nobody is available or you are closed), and the team calls customers from the inbox as ${number}.`
          : 'Add the phone number customers call to set up calling.'}
      </Typography.Paragraph>
      {setUp.isError && (
        <Typography.Text type="danger" role="alert" style={{ fontSize: 12 }}>
          {failureText(setUp.error)}
        </Typography.Text>
      )}
    </section>
  );
}
