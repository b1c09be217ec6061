import {
  renderTemplate,
  TEMPLATE_MAX_BODY_CHARS,
  TEMPLATE_MAX_NAME_CHARS,
  TEMPLATE_PLACEHOLDERS,
  type TemplatePlaceholder,
  UNKNOWN_LOCATION,
} from '@switchboard/shared';
import {
  Button,
  Flex,
  Form,
  type FormRule,
  type GetRef,
  Input,
  Modal,
  Select,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { useEffect, useRef } from 'react';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useCreateMessageTemplate } from '../api/create-message-template.ts';
import { useUpdateMessageTemplate } from '../api/update-message-template.ts';
import type { MessageTemplate, TemplateInput } from '../types.ts';
import {
  EXAMPLE_FIRST_NAME,
  exampleValues,
  insertAtCursor,
  PLACEHOLDER_HINTS,
} from '../utils/placeholders.ts';

export type TemplateLocation = { id: string; name: string | null };

type Props = {
  open: boolean;
  /** The template being edited; null to add one. */
  template: MessageTemplate | null;
  business: { name: string; timezone: string };
  locations: TemplateLocation[];
  /** The location the preview speaks for when the template is offered in every location. */
  currentLocationId: string | null;
  onSaved: () => void;
  onClose: () => void;
};

type Values = { name: string; body: string; location_id: string };

/** The Select's value for "All locations" (the API's null). */
const ALL_LOCATIONS = '';

/** The server trims before it checks the length, so the form does the same. */
const atMost = (label: string, max: number): FormRule => ({
  validator: (_, value: string | undefined) =>
    (value ?? '').trim().length <= max
      ? Promise.resolve()
      : Promise.reject(new Error(`${label} must be at most ${max} characters`)),
});

function toInput(values: Values): TemplateInput {
  return {
    name: values.name.trim(),
    body: values.body.trim(),
    location_id: values.location_id || null,
  };
}

export default function TemplateFormModal({
  open,
  template,
  business,
  locations,
  currentLocationId,
  onSaved,
  onClose,
}: Props) {
  const { token } = theme.useToken();
  const [form] = Form.useForm<Values>();
  const create = useCreateMessageTemplate();
  const update = useUpdateMessageTemplate();
  const saving = create.isPending || update.isPending;
  const bodyRef = useRef<GetRef<typeof Input.TextArea>>(null);
  // Until the person has been in the message box, a placeholder goes at the end of what is there.
  const cursorPlaced = useRef(false);
  const body = Form.useWatch('body', form) ?? '';
  const locationId = Form.useWatch('location_id', form) ?? ALL_LOCATIONS;

  useEffect(() => {
    if (!open) return;
    cursorPlaced.current = false;
    form.resetFields();
    form.setFieldsValue({
      name: template?.name ?? '',
      body: template?.body ?? '',
      location_id: template?.location_id ?? ALL_LOCATIONS,
    });
  }, [open, template, form]);

  const insertPlaceholder = (placeholder: TemplatePlaceholder) => {
    const el = bodyRef.current?.resizableTextArea?.textArea;
    const current: string = form.getFieldValue('body') ?? '';
    const selection =
      el && cursorPlaced.current
        ? { start: el.selectionStart, end: el.selectionEnd }
        : { start: current.length, end: current.length };
    const next = insertAtCursor(current, selection, `{${placeholder}}`);
    form.setFieldValue('body', next.value);
    void form.validateFields(['body']).catch(() => {});
    cursorPlaced.current = true;
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.cursor, next.cursor);
    });
  };

  const submit = (values: Values) => {
    const input = toInput(values);
    const done = (text: string) => () => {
      notify.success(text);
      onSaved();
      onClose();
    };
    // The server's notice says what it refused; each field it names is also shown under that field.
    const onError = (error: unknown) => void showFieldErrors(form, error);
    if (template)
      update.mutate({ id: template.id, ...input }, { onSuccess: done('Template saved'), onError });
    else create.mutate(input, { onSuccess: done('Template added'), onError });
  };

  const previewLocation =
    locations.find((l) => l.id === (locationId || currentLocationId)) ?? locations[0] ?? null;
  const preview = renderTemplate(
    body.trim(),
    exampleValues({
      businessName: business.name,
      locationName: previewLocation?.name,
      timezone: business.timezone,
      now: new Date(),
    }),
  );

  return (
    <Modal
      open={open}
      title={template ? 'Edit template' : 'Add template'}
      okText={template ? 'Save' : 'Add template'}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      width={640}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit} disabled={saving} style={{ marginTop: 16 }}>
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true }, atMost('Name', TEMPLATE_MAX_NAME_CHARS)]}
          extra="What your team picks from the Templates menu in the inbox."
        >
          <Input placeholder="e.g. Booking confirmed" count={{ show: true, max: TEMPLATE_MAX_NAME_CHARS }} />
        </Form.Item>
        <Form.Item
          label="Message"
          name="body"
          rules={[{ required: true, whitespace: true }, atMost('Message', TEMPLATE_MAX_BODY_CHARS)]}
          extra={
            <Flex wrap gap={6} align="center" style={{ marginTop: 8 }}>
              <span>Insert at the cursor:</span>
              {TEMPLATE_PLACEHOLDERS.map((p) => (
                <Tooltip key={p} title={`Filled with ${PLACEHOLDER_HINTS[p]}`}>
                  <Button
                    size="small"
                    aria-label={`Insert {${p}}`}
                    // Keeps the cursor (and any selected text) in the message box while the button is pressed.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => insertPlaceholder(p)}
                    style={{ fontFamily: token.fontFamilyCode, fontSize: 12 }}
                  >
                    {`{${p}}`}
                  </Button>
                </Tooltip>
              ))}
            </Flex>
          }
        >
          <Input.TextArea
            ref={bodyRef}
            autoSize={{ minRows: 4, maxRows: 12 }}
            count={{ show: true, max: TEMPLATE_MAX_BODY_CHARS }}
            placeholder="Hi {first_name}, thanks for getting in touch with {business_name}…"
            onFocus={() => {
              cursorPlaced.current = true;
            }}
          />
        </Form.Item>
        <Form.Item
          label="Location"
          name="location_id"
          extra="Where the inbox offers it: in every location’s conversations, or in one location’s only."
        >
          <Select
            options={[
              { value: ALL_LOCATIONS, label: 'All locations' },
              ...locations.map((l) => ({ value: l.id, label: l.name ?? UNKNOWN_LOCATION })),
            ]}
          />
        </Form.Item>
      </Form>
      <figure aria-label="Message preview" style={{ margin: 0 }}>
        <Typography.Text strong>Preview</Typography.Text>
        <div
          style={{
            marginTop: 8,
            padding: '10px 14px',
            borderRadius: token.borderRadiusLG,
            background: token.colorFillQuaternary,
            border: `1px solid ${token.colorBorderSecondary}`,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            minHeight: 44,
          }}
        >
          {preview || <Typography.Text type="secondary">The message, filled in, shows here.</Typography.Text>}
        </div>
        <figcaption style={{ marginTop: 6 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            As a customer named {EXAMPLE_FIRST_NAME} writing to {previewLocation?.name || business.name} would
            read it.
          </Typography.Text>
        </figcaption>
      </figure>
    </Modal>
  );
}
