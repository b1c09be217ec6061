import { SendOutlined } from '@ant-design/icons';
import { isValidEmail, MESSAGE_INPUT_HEIGHT } from '@switchboard/shared';
import { Button, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useStartConversation } from '../api/start-conversation.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { COMPOSE_CHANNELS, type ComposeChannel } from '../types.ts';
import { ChannelMark, channelName } from './channel.tsx';

type Values = { channel: ComposeChannel; to: string; name?: string; subject?: string; message: string };

const CHANNEL_OPTIONS = COMPOSE_CHANNELS.map((c) => ({
  value: c,
  label: (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <ChannelMark channel={c} size={16} />
      {channelName(c)}
    </span>
  ),
}));

/**
 * Compose mode: write to a phone number or email address. The server finds the customer (or adds them),
 * opens or continues their enquiry, and the inbox goes straight to it.
 */
export default function ComposeModal({
  locationId,
  onStarted,
}: {
  locationId: string;
  onStarted: (enquiryId: string) => void;
}) {
  const composing = useComposeStore((s) => s.composing);
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
      },
    );

  return (
    <Modal
      open={composing}
      title="New message"
      onCancel={stop}
      destroyOnHidden
      width={520}
      footer={[
        <Button key="cancel" onClick={stop}>
          Cancel
        </Button>,
        <Button
          key="send"
          type="primary"
          icon={<SendOutlined />}
          loading={start.isPending}
          onClick={() => form.submit()}
        >
          Send
        </Button>,
      ]}
    >
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
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="channel" label="Channel" style={{ width: 200 }}>
            <Select options={CHANNEL_OPTIONS} />
          </Form.Item>
          <Form.Item
            name="to"
            label={isEmail ? 'Email address' : 'Phone number'}
            style={{ flex: 1 }}
            rules={[
              { required: true, whitespace: true },
              ...(isEmail
                ? [
                    {
                      validator: (_: unknown, v: string | undefined) =>
                        !v || isValidEmail(v.trim())
                          ? Promise.resolve()
                          : Promise.reject(new Error('Enter an email address like name@example.com')),
                    },
                  ]
                : []),
            ]}
          >
            <Input
              autoFocus
              inputMode={isEmail ? 'email' : 'tel'}
              placeholder={isEmail ? 'name@example.com' : '0412 345 678'}
              autoComplete="off"
            />
          </Form.Item>
        </div>
        <Form.Item name="name" label="Name (optional)">
          <Input placeholder="Who you are writing to" autoComplete="off" />
        </Form.Item>
        {isEmail && (
          <Form.Item name="subject" label="Subject" rules={[{ required: true, whitespace: true }]}>
            <Input placeholder="What this email is about" />
          </Form.Item>
        )}
        <Form.Item
          name="message"
          label="Message"
          rules={[{ required: true, whitespace: true }]}
          style={{ marginBottom: 0 }}
        >
          <Input.TextArea
            style={{ height: MESSAGE_INPUT_HEIGHT, resize: 'vertical' }}
            placeholder="Write your message"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
