import {
  INTAKE_LIMIT_KEYS,
  INTAKE_LIMIT_LABELS,
  INTAKE_LIMIT_MAX,
  INTAKE_LIMIT_MIN,
  type IntakeLimits,
  type IntakeLimitsResponse,
} from '@switchboard/shared';
import { Button, Flex, Form, InputNumber, Typography } from 'antd';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useUpdateIntakeLimits } from '../api/update-intake-limits.ts';

type Props = { settings: IntakeLimitsResponse; canManage: boolean };

const HELP: Record<keyof IntakeLimits, string> = {
  chats_per_ip: 'Visitors on one connection (a home, an office) share this.',
  messages_per_visitor: 'Per chat visitor, across all their messages.',
  forms_per_ip: 'Submissions of your website forms that arrive at this location.',
};

/** How much one visitor may send this location per hour through the chat and the forms before waiting. */
export function IntakeLimitsForm({ settings, canManage }: Props) {
  const [form] = Form.useForm<IntakeLimits>();
  const update = useUpdateIntakeLimits();
  const submit = (values: IntakeLimits) =>
    update.mutate(
      { locationId: settings.location_id, ...values },
      {
        onSuccess: () => notify.success('Spam limits saved'),
        onError: (error) => void showFieldErrors(form, error),
      },
    );

  return (
    <Form<IntakeLimits>
      form={form}
      layout="vertical"
      initialValues={settings.limits}
      onFinish={submit}
      disabled={!canManage || update.isPending}
      style={{ maxWidth: 560 }}
    >
      <Typography.Paragraph type="secondary">
        Someone who goes over a limit is asked to wait before trying again; nothing they already sent is lost.
      </Typography.Paragraph>
      {INTAKE_LIMIT_KEYS.map((key) => (
        <Form.Item
          key={key}
          label={INTAKE_LIMIT_LABELS[key]}
          name={key}
          extra={`${HELP[key]} Default ${settings.defaults[key]}.`}
          rules={[
            { required: true, message: `${INTAKE_LIMIT_LABELS[key]}: enter a number` },
            {
              type: 'integer',
              min: INTAKE_LIMIT_MIN,
              max: INTAKE_LIMIT_MAX,
              message: `${INTAKE_LIMIT_LABELS[key]}: a whole number from ${INTAKE_LIMIT_MIN} to ${INTAKE_LIMIT_MAX}`,
            },
          ]}
        >
          <InputNumber min={INTAKE_LIMIT_MIN} max={INTAKE_LIMIT_MAX} precision={0} style={{ width: 160 }} />
        </Form.Item>
      ))}
      <Flex gap={8} wrap>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          Save limits
        </Button>
        <Button onClick={() => form.setFieldsValue(settings.defaults)}>Use the defaults</Button>
      </Flex>
    </Form>
  );
}
