import { SendOutlined } from '@ant-design/icons';
import { isValidEmail, MESSAGE_INPUT_HEIGHT } from '@switchboard/shared';
import { Button, Flex, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { useStartConversation } from '../api/start-conversation.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { COMPOSE_CHANNELS, type ComposeChannel } from '../types.ts';
import { ChannelMark, channelName } from './channel.tsx';

type Values = { channel: ComposeChannel; to: string; name?: string; subject?: string; message: string };

type Props = { locationId: string; onStarted: (enquiryId: string) => void };

const CHANNEL_OPTIONS = COMPOSE_CHANNELS.map((c) => ({
  value: c,
  label: (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <ChannelMark channel={c} size={16} />
      {channelName(c)}
    </span>
  ),
}));

/** The number or address is sent as `phone` or `email`; the form has one box for either. */
const TO_FIELD = { phone: 'to', email: 'to' } as const;

const emailRule = {
  validator: (_: unknown, value: string | undefined) =>
    !value || isValidEmail(value.trim())
      ? Promise.resolve()
      : Promise.reject(new Error('Enter an email address like name@example.com')),
};

/**
 * Compose mode: write to a phone number or email address. The server finds the customer (or adds them),
 * opens or continues their enquiry, and the inbox goes straight to it.
 */
export default function ComposeModal(props: Props) {
  const composing = useComposeStore((s) => s.composing);
  const stop = useComposeStore((s) => s.stopComposing);
  return (
    <Modal open={composing} title="New message" onCancel={stop} destroyOnHidden width={520} footer={null}>
      {/* Mounted afresh each time compose mode turns on, from the contact it has just cleared. */}
      <ComposeForm {...props} />
    </Modal>
  );
}

function ComposeForm({ locationId, onStarted }: Props) {
  const contact = useComposeStore((s) => s.contact);
  const setContact = useComposeStore((s) => s.setContact);
  const stop = useComposeStore((s) => s.stopComposing);
  const start = useStartConversation();
  const [form] = Form.useForm<Values>();
  const [channel, setChannel] = useState<ComposeChannel>(contact.channel);
  const isEmail = channel === 'email';

  const submit = (values: Values) =>
    start.mutate(
      {
        channel: values.channel,
        ...(values.channel === 'email' ? { email: values.to.trim() } : { phone: values.to.trim() }),
        name: values.name?.trim() || undefined,
        subject: values.subject?.trim() || undefined,
        message: values.message.trim(),
        locationId,
      },
      {
        onSuccess: ({ enquiry_id }) => {
          stop();
          onStarted(enquiry_id);
        },
        onError: (error) => void showFieldErrors(form, error, TO_FIELD),
      },
    );

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{
        channel: contact.channel,
        to: contact.channel === 'email' ? contact.email : contact.phone,
        name: contact.name,
        message: '',
      }}
      onValuesChange={(changed: Partial<Values>, all: Values) => {
        if (changed.channel) setChannel(changed.channel);
        setContact({
          channel: all.channel,
          name: all.name ?? '',
          ...(all.channel === 'email' ? { email: all.to ?? '' } : { phone: all.to ?? '' }),
        });
      }}
      onFinish={submit}
      style={{ marginTop: 16 }}
    >
      <Flex gap={12}>
        <Form.Item name="channel" label="Channel" style={{ width: 200 }}>
          <Select options={CHANNEL_OPTIONS} />
        </Form.Item>
        <Form.Item
          name="to"
          label={isEmail ? 'Email address' : 'Phone number'}
          style={{ flex: 1 }}
          rules={[{ required: true, whitespace: true }, ...(isEmail ? [emailRule] : [])]}
        >
          <Input
            autoFocus
            inputMode={isEmail ? 'email' : 'tel'}
            placeholder={isEmail ? 'name@example.com' : '0412 345 678'}
            autoComplete="off"
          />
        </Form.Item>
      </Flex>
      <Form.Item name="name" label="Name (optional)">
        <Input placeholder="Who you are writing to" autoComplete="off" />
      </Form.Item>
      {isEmail && (
        <Form.Item name="subject" label="Subject" rules={[{ required: true, whitespace: true }]}>
          <Input placeholder="What this email is about" />
        </Form.Item>
      )}
      <Form.Item name="message" label="Message" rules={[{ required: true, whitespace: true }]}>
        <Input.TextArea
          style={{ height: MESSAGE_INPUT_HEIGHT, resize: 'vertical' }}
          placeholder="Write your message"
        />
      </Form.Item>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={stop}>Cancel</Button>
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={start.isPending}>
          Send
        </Button>
      </Flex>
    </Form>
  );
}
