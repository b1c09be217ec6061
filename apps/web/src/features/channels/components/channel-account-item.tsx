import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { ChannelAccountJson } from '@switchboard/shared';
import { Alert, Button, Descriptions, Flex, Popconfirm, Space, Tag, Typography } from 'antd';
import { notify } from '@/lib/notifier.ts';
import { useDeleteChannel } from '../api/delete-channel.ts';
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
