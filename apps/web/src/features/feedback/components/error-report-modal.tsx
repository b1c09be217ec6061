import { Descriptions, Form, Input, Modal, Typography } from 'antd';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useSendFeedback } from '../api/send-feedback.ts';

type Props = { errorCode: string; debugCode: string; path: string; onClose: () => void };

/** The error report the 'Send Feedback' button leads to: what the person was doing, sent with the codes. */
export function ErrorReportModal({ errorCode, debugCode, path, onClose }: Props) {
  const [form] = Form.useForm<{ message: string }>();
  const feedback = useSendFeedback();

  const submit = ({ message }: { message: string }) =>
    feedback.mutate(
      { error_code: errorCode, debug_code: debugCode, message, path },
      {
        onSuccess: () => {
          notify.success('Thanks. Your report is with our engineers.');
          onClose();
        },
        onError: (error) => void showFieldErrors(form, error),
      },
    );

  return (
    <Modal
      open
      title="Report a problem"
      okText="Send report"
      cancelText="Cancel"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={feedback.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        Something went wrong a moment ago. Tell us what you were doing and we will look into it.
      </Typography.Paragraph>
      <Descriptions
        size="small"
        column={1}
        bordered
        style={{ marginBottom: 16 }}
        items={[
          { key: 'code', label: 'Error code', children: errorCode || 'Unknown' },
          { key: 'page', label: 'Page', children: path },
        ]}
      />
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item label="Details" name="message" rules={[{ required: true, whitespace: true }]}>
          <Input.TextArea
            rows={4}
            maxLength={2000}
            showCount
            placeholder="I clicked Save on a location and…"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
