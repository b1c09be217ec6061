import { SendOutlined } from '@ant-design/icons';
import { channelDisplayName, type MessageDto, UNKNOWN_LOCATION } from '@switchboard/shared';
import { Button, Empty, Flex, Form, Input, Select, Tag, Typography, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { phoneText } from '@/lib/phones.ts';
import { useSandboxConversation } from '../api/find-sandbox-conversation.ts';
import { useConversation } from '../api/get-conversation.ts';
import { useSendSandboxInbound } from '../api/send-sandbox-inbound.ts';
import { identityOf, SANDBOX_CHANNELS, type SandboxChannel, type SandboxInbound } from '../types.ts';
import { SandboxPhonePanel } from './sandbox-phone-panel.tsx';

type Props = {
  locations: readonly { id: string; name: string | null; phone_number: string | null }[];
  defaultLocationId: string | null;
  /** Calling is on for the business: the customer's phone is offered only then. */
  calls: boolean;
};

type Values = {
  location_id: string;
  channel: SandboxChannel;
  identity?: string;
  name?: string;
  subject?: string;
  message?: string;
};

const IDENTITY_LABELS = {
  phone: 'Customer phone',
  email: 'Customer email',
  external_id: 'Customer id',
} as const;

const IDENTITY_PLACEHOLDERS = {
  phone: '+61 412 345 678',
  email: 'alex@example.com',
  external_id: 'e.g. 2400012345678901 (their id on the network)',
} as const;

/** The conversation each simulated customer's last message went to, until the server's answer catches up. */
const customerKey = (v: Partial<Values>) =>
  [v.location_id, v.channel, v.identity?.trim().toLowerCase()].join('|');

/** The customer's number, address or id is sent under `from`; the form has one box for it. */
const customerField = (serverPath: string) =>
  serverPath.replace(/^from\.(phone|email|external_id)$/, 'identity');

function toInbound(values: Values): SandboxInbound {
  const kind = identityOf(values.channel);
  const name = values.name?.trim() || undefined;
  return {
    channel: values.channel,
    location_id: values.location_id,
    from: { [kind]: values.identity?.trim(), name },
    message: values.message ?? '',
    subject: values.channel === 'email' ? values.subject?.trim() || undefined : undefined,
  };
}

function Bubble({ message }: { message: MessageDto }) {
  const { token } = theme.useToken();
  const fromCustomer = message.direction === 'in';
  const time = new Date(message.created_at).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
  return (
    <li
      aria-label={fromCustomer ? 'From the customer' : 'From the business'}
      style={{ alignSelf: fromCustomer ? 'flex-end' : 'flex-start', maxWidth: '75%', listStyle: 'none' }}
    >
      <div
        style={{
          background: fromCustomer ? 'var(--sb-primary-fill)' : token.colorFillSecondary,
          color: fromCustomer ? token.colorTextLightSolid : token.colorText,
          borderRadius: 16,
          padding: '8px 12px',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        {message.meta.subject && <strong style={{ display: 'block' }}>{message.meta.subject}</strong>}
        {message.message}
      </div>
      <Flex
        gap={6}
        justify={fromCustomer ? 'flex-end' : 'flex-start'}
        style={{ fontSize: 12, color: token.colorTextSecondary, marginTop: 2 }}
      >
        <span>{fromCustomer ? 'Customer' : (message.team_user?.full_name ?? 'Business')}</span>
        <span>{time}</span>
        <Tag color={message.status === 'failed' ? 'error' : undefined} style={{ marginInlineEnd: 0 }}>
          {message.status}
        </Tag>
      </Flex>
      {message.error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {message.error}
        </Typography.Text>
      )}
    </li>
  );
}

function Conversation({ enquiryId }: { enquiryId: string | null }) {
  const conversation = useConversation(enquiryId);
  const end = useRef<HTMLDivElement>(null);
  const items = conversation.data?.items ?? [];
  const last = items.at(-1)?.id;

  // A block body: Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a new message arrives.
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [last]);

  if (!enquiryId) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description="Send a message as this customer to start a conversation. The business's replies appear here."
        style={{ margin: 'auto' }}
      />
    );
  }
  return (
    <>
      <ul
        role="log"
        aria-label="Conversation"
        aria-live="polite"
        style={{ display: 'flex', flexDirection: 'column', gap: 12, margin: 0, padding: 0 }}
      >
        {items.map((m) => (
          <Bubble key={m.id} message={m} />
        ))}
      </ul>
      <div ref={end} />
    </>
  );
}

export function SandboxSimulator({ locations, defaultLocationId, calls }: Props) {
  const [form] = Form.useForm<Values>();
  const { token } = theme.useToken();
  const send = useSendSandboxInbound();
  // Which enquiry each simulated customer's messages went to: the simulator's own memory, not server data.
  const [enquiries, setEnquiries] = useState<Record<string, string>>({});
  const values = Form.useWatch([], form) as Partial<Values> | undefined;
  const channel = values?.channel ?? 'sms';
  const kind = identityOf(channel);
  // The server knows the customer's conversation even before the simulator wrote as them (a reply to a
  // number, a missed call's text); the one a message just went to shows at once, before the next poll.
  const found = useSandboxConversation({
    location_id: values?.location_id,
    channel: values?.channel,
    identity: values?.identity,
  });
  const enquiryId = found.data ?? (values ? enquiries[customerKey(values)] : undefined) ?? null;
  const location = locations.find((l) => l.id === values?.location_id);

  const submit = (v: Values) => {
    const key = customerKey(v);
    send.mutate(toInbound(v), {
      onSuccess: (result) => {
        setEnquiries((all) => ({ ...all, [key]: result.enquiry_id }));
        void found.refetch();
        form.setFieldValue('message', '');
      },
      onError: (error) => void showFieldErrors(form, error, customerField),
    });
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      onFinish={submit}
      initialValues={{ location_id: defaultLocationId ?? locations[0]?.id, channel: 'sms' }}
    >
      <Flex gap={24} wrap align="stretch">
        <Panel title="The customer" style={{ flex: '1 1 300px', maxWidth: 420 }}>
          <Form.Item label="Location" name="location_id" rules={[{ required: true }]}>
            <Select options={locations.map((l) => ({ value: l.id, label: l.name ?? UNKNOWN_LOCATION }))} />
          </Form.Item>
          <Form.Item label="Channel" name="channel" rules={[{ required: true }]}>
            <Select options={SANDBOX_CHANNELS.map((c) => ({ value: c, label: channelDisplayName(c) }))} />
          </Form.Item>
          <Form.Item
            label={IDENTITY_LABELS[kind]}
            name="identity"
            rules={[
              {
                required: true,
                whitespace: true,
                message: `Enter the ${IDENTITY_LABELS[kind].toLowerCase()}.`,
              },
              ...(kind === 'email'
                ? [{ type: 'email' as const, message: 'Enter a valid email address.' }]
                : []),
            ]}
          >
            <Input
              placeholder={IDENTITY_PLACEHOLDERS[kind]}
              inputMode={kind === 'phone' ? 'tel' : kind === 'email' ? 'email' : 'text'}
              autoComplete="off"
            />
          </Form.Item>
          <Form.Item label="Customer name" name="name">
            <Input placeholder="Alex Taylor" autoComplete="off" />
          </Form.Item>
          {channel === 'email' && (
            <Form.Item label="Subject" name="subject">
              <Input placeholder="Booking enquiry" />
            </Form.Item>
          )}
          <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 12 }}>
            {location?.phone_number
              ? `Texting ${phoneText(location.phone_number)}. `
              : 'This location has no phone number yet; messages arrive all the same. '}
            Replies from the inbox show up here within a couple of seconds (unless the location has its own
            provider account connected, which sends them for real).
          </Typography.Paragraph>
        </Panel>
        <Panel title="Conversation" style={{ flex: '2 1 420px', display: 'flex', flexDirection: 'column' }}>
          <Flex vertical gap={16}>
            <div
              style={{
                minHeight: 320,
                maxHeight: '55vh',
                overflowY: 'auto',
                display: 'flex',
                flexDirection: 'column',
                padding: 12,
                background: token.colorBgLayout,
                borderRadius: token.borderRadiusLG,
              }}
            >
              <Conversation enquiryId={enquiryId} />
            </div>
            <Form.Item
              label="Message"
              name="message"
              rules={[{ required: true, whitespace: true, message: 'Write the message the customer sends.' }]}
              style={{ marginBottom: 0 }}
            >
              <Input.TextArea
                rows={3}
                placeholder="Hi, do you have anything free on Saturday morning?"
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) form.submit();
                }}
              />
            </Form.Item>
            <Flex justify="flex-end">
              <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending}>
                Send as customer
              </Button>
            </Flex>
          </Flex>
        </Panel>
        {calls && (
          <SandboxPhonePanel
            locationId={values?.location_id}
            locationName={location?.name ?? 'the location'}
            defaultFrom={kind === 'phone' ? (values?.identity ?? '') : ''}
          />
        )}
      </Flex>
    </Form>
  );
}
