import { CheckCircleTwoTone } from '@ant-design/icons';
import { type FormPageInfo, UNKNOWN_LOCATION } from '@switchboard/shared';
import { Alert, Button, Flex, Form, Input, Result, Select, Typography } from 'antd';
import { isApiError } from '@/lib/api-error.ts';
import { useFieldErrors } from '@/lib/form-errors.ts';
import { useSubmitContactForm } from '../api/submit-contact-form.ts';
import type { ContactSubmission } from '../types.ts';

type Props = {
  token: string;
  locationId: string | null;
  /** The business's locations, when the link names none and there are several: the visitor picks one. */
  locations: FormPageInfo['locations'];
};

type Values = Omit<ContactSubmission, 'location_id'> & { location_id?: string };

const blankToUndefined = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

export function ContactForm({ token, locationId, locations }: Props) {
  const [form] = Form.useForm<Values>();
  const submit = useSubmitContactForm();
  const fieldErrors = useFieldErrors(form);

  if (submit.isSuccess) {
    return (
      <Result
        icon={<CheckCircleTwoTone />}
        title={<h2 style={{ font: 'inherit', margin: 0 }}>Thank you</h2>}
        subTitle="We have your message and will be in touch soon."
        extra={
          <Button
            onClick={() => {
              form.resetFields();
              submit.reset();
            }}
          >
            Send another message
          </Button>
        }
      />
    );
  }

  // 4xx messages are the server's own words (which field to fix); anything else already raised a notice.
  const error =
    isApiError(submit.error) && !submit.error.notified && fieldErrors.unplaced(submit.error)
      ? submit.error.message
      : null;

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      disabled={submit.isPending}
      onFinish={(v) =>
        submit.mutate(
          {
            token,
            name: blankToUndefined(v.name),
            email: blankToUndefined(v.email),
            phone: blankToUndefined(v.phone),
            message: v.message.trim(),
            _gotcha: v._gotcha || undefined,
            ...(locationId || v.location_id ? { location_id: locationId ?? v.location_id } : {}),
          },
          { onError: fieldErrors.onError },
        )
      }
    >
      {locations.length > 1 && (
        <Form.Item
          label="Location"
          name="location_id"
          rules={[{ required: true, message: 'Choose the location to write to.' }]}
        >
          <Select
            placeholder="Which location?"
            options={locations.map((l) => ({
              value: l.id,
              label: [l.name ?? UNKNOWN_LOCATION, l.address].filter(Boolean).join(' · '),
            }))}
          />
        </Form.Item>
      )}
      <Form.Item label="Name" name="name" rules={[{ max: 200 }]}>
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item
        label="Email"
        name="email"
        rules={[{ type: 'email', message: 'Enter a valid email address.' }]}
      >
        <Input type="email" autoComplete="email" inputMode="email" />
      </Form.Item>
      <Form.Item label="Phone" name="phone" rules={[{ max: 40 }]}>
        <Input type="tel" autoComplete="tel" inputMode="tel" />
      </Form.Item>
      <Form.Item
        label="Message"
        name="message"
        rules={[{ required: true, whitespace: true, message: 'Write your message.' }, { max: 10_000 }]}
      >
        <Input.TextArea rows={5} />
      </Form.Item>
      {/* The honeypot: off screen and out of the tab order, so only bots fill it. */}
      <div
        aria-hidden="true"
        style={{ position: 'absolute', left: -10_000, width: 1, height: 1, overflow: 'hidden' }}
      >
        <Form.Item label="Leave this empty" name="_gotcha">
          <Input tabIndex={-1} autoComplete="off" />
        </Form.Item>
      </div>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Give an email or a phone number so we can reply.
        </Typography.Text>
        <Button type="primary" htmlType="submit" loading={submit.isPending}>
          Send message
        </Button>
      </Flex>
    </Form>
  );
}
