import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { normalisePhone, type TrackingNumberInput } from '@switchboard/shared';
import { Alert, Button, Form, Input, List, Typography } from 'antd';
import { failureText } from '@/lib/failure-text.ts';
import { useFieldErrors } from '@/lib/form-errors.ts';
import {
  useAddTrackingNumber,
  useRemoveTrackingNumber,
  useTrackingNumbers,
} from '../api/tracking-numbers.ts';

/**
 * A location's tracking numbers: other numbers (on its Twilio account) printed on a flyer or shown in an ad,
 * which ring the location and put the campaign on the calls they bring.
 */
export function TrackingNumbers({ locationId }: { locationId: string }) {
  const [form] = Form.useForm<TrackingNumberInput>();
  const fieldErrors = useFieldErrors(form);
  const numbers = useTrackingNumbers(locationId);
  const add = useAddTrackingNumber(locationId);
  const remove = useRemoveTrackingNumber(locationId);
  return (
    <section aria-label="Tracking numbers" style={{ marginTop: 8 }}>
      <Typography.Title level={5} style={{ marginBottom: 4 }}>
        Tracking numbers
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        Another number for each campaign (a flyer, an ad): it rings this location, and its calls show the
        campaign in the call history. Buy the number on the location’s Twilio account and point its Voice URL
        here like the main one.
      </Typography.Paragraph>
      {numbers.isError && <Alert type="error" showIcon message={failureText(numbers.error)} />}
      <List
        size="small"
        loading={numbers.isPending}
        locale={{ emptyText: 'No tracking numbers yet.' }}
        dataSource={numbers.data ?? []}
        renderItem={(t) => (
          <List.Item
            actions={[
              <Button
                key="remove"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`Remove ${t.number}`}
                loading={remove.isPending && remove.variables === t.id}
                onClick={() => remove.mutate(t.id)}
              />,
            ]}
          >
            <List.Item.Meta
              title={t.number}
              description={[t.source, t.medium, t.campaign].filter(Boolean).join(' · ')}
            />
          </List.Item>
        )}
      />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) =>
          add.mutate(values, { onSuccess: () => form.resetFields(), onError: fieldErrors.onError })
        }
        style={{ marginTop: 8 }}
      >
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 8 }}>
          <Form.Item
            label="Number"
            name="number"
            rules={[
              { required: true, message: 'Enter the number.' },
              {
                validator: (_, value: string | undefined) =>
                  !value || normalisePhone(value)
                    ? Promise.resolve()
                    : Promise.reject(new Error('Enter a valid phone number, such as 0491 570 177.')),
              },
            ]}
          >
            <Input inputMode="tel" placeholder="0491 570 177" />
          </Form.Item>
          <Form.Item
            label="Source"
            name="source"
            rules={[{ required: true, whitespace: true, message: 'Say where it is advertised.' }]}
          >
            <Input placeholder="flyer" />
          </Form.Item>
          <Form.Item label="Medium" name="medium">
            <Input placeholder="print" />
          </Form.Item>
          <Form.Item label="Campaign" name="campaign">
            <Input placeholder="spring-letterbox" />
          </Form.Item>
        </div>
        {add.isError && fieldErrors.unplaced(add.error) && (
          <Alert type="error" showIcon message={failureText(add.error)} style={{ marginBottom: 8 }} />
        )}
        <Button htmlType="submit" icon={<PlusOutlined />} loading={add.isPending}>
          Add tracking number
        </Button>
      </Form>
      {remove.isError && (
        <Alert type="error" showIcon message={failureText(remove.error)} style={{ marginTop: 8 }} />
      )}
    </section>
  );
}
