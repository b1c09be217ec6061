import { WhatsAppOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useWhatsAppTemplates, type WhatsAppTemplate } from '../api/get-whatsapp-templates.ts';
import { useSendWhatsAppTemplate } from '../api/send-whatsapp-template.ts';

const keyOf = (t: WhatsAppTemplate) => `${t.name}|${t.language}`;

/**
 * Fills a template's {{n}} variables so the person sending sees what the customer will read. A template with
 * no body text (only a header or buttons) previews as its name.
 */
function preview(template: WhatsAppTemplate, values: string[]): string {
  return template.variables.reduce(
    (text, variable, i) => text.replaceAll(`{{${variable}}}`, values[i]?.trim() || `{{${variable}}}`),
    template.body ?? `[${template.name}]`,
  );
}

/**
 * WhatsApp only lets a business write freely within 24 hours of the customer's last message; after that it
 * must send one of its approved templates. This picks one from the connected WhatsApp Business account.
 */
export function WhatsAppTemplateButton({ enquiryId }: { enquiryId: string }) {
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<string>();
  const [values, setValues] = useState<string[]>([]);
  const templates = useWhatsAppTemplates(enquiryId, open);
  const send = useSendWhatsAppTemplate();
  const template = useMemo(
    () => templates.data?.find((t) => keyOf(t) === selected),
    [templates.data, selected],
  );
  const complete = template?.variables.every((_, i) => values[i]?.trim());

  const close = () => {
    setOpen(false);
    setSelected(undefined);
    setValues([]);
  };
  const submit = async () => {
    if (!template || !complete) return;
    await send.mutateAsync({
      enquiryId,
      name: template.name,
      language: template.language,
      variables: values,
    });
    close();
  };

  return (
    <>
      <Button
        type="text"
        icon={<WhatsAppOutlined />}
        aria-label="WhatsApp template"
        onClick={() => setOpen(true)}
      >
        <span className="ib-bar-label">WhatsApp template</span>
      </Button>
      <Modal
        title="Send a WhatsApp template"
        open={open}
        onCancel={close}
        okText="Send template"
        okButtonProps={{ disabled: !complete, loading: send.isPending }}
        onOk={() => void submit().catch(() => {})}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          More than 24 hours after the customer last wrote, WhatsApp only delivers templates your business has
          had approved.
        </Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label="Template">
            <Select
              aria-label="Template"
              loading={templates.isPending}
              placeholder={templates.isError ? 'Templates could not be loaded' : 'Choose a template'}
              value={selected}
              onChange={(key: string) => {
                setSelected(key);
                setValues([]);
              }}
              options={(templates.data ?? []).map((t) => ({
                value: keyOf(t),
                label: `${t.name} (${t.language})`,
              }))}
              notFoundContent="No approved templates in this WhatsApp account"
            />
          </Form.Item>
          {template?.variables.map((variable, i) => (
            <Form.Item key={variable} label={`Value for {{${variable}}}`}>
              <Input
                aria-label={`Value for {{${variable}}}`}
                value={values[i] ?? ''}
                maxLength={1000}
                onChange={(e) => {
                  const next = [...values];
                  next[i] = e.target.value;
                  setValues(next);
                }}
              />
            </Form.Item>
          ))}
          {template && (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} aria-label="Preview">
              {preview(template, values)}
            </Typography.Paragraph>
          )}
        </Form>
      </Modal>
    </>
  );
}
