import {
  PRIMARY_COLOR,
  WIDGET_COLOR_PATTERN,
  WIDGET_FIELDS,
  WIDGET_MAX_GREETING_CHARS,
  WIDGET_MAX_TITLE_CHARS,
  type WidgetFieldKey,
  type WidgetFields,
  type WidgetSettings,
} from '@switchboard/shared';
import {
  Alert,
  Button,
  Checkbox,
  ColorPicker,
  Flex,
  Form,
  Input,
  Space,
  Switch,
  Table,
  Typography,
} from 'antd';
import { useEffect } from 'react';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useUpdateWidgetSettings } from '../api/update-widget-settings.ts';
import { contrastWithWhite, MIN_CONTRAST } from '../utils/contrast.ts';
import { WidgetPreview } from './widget-preview.tsx';

type Values = { title: string; color: string; greeting: string; fields: WidgetFields };

type Props = { settings: WidgetSettings; canManage: boolean };

const DEFAULT_FIELDS: WidgetFields = {
  name: { ask: true, required: true },
  phone: { ask: true, required: false },
  email: { ask: true, required: false },
};

const FIELD_LABELS: Record<WidgetFieldKey, string> = { name: 'Name', phone: 'Phone number', email: 'Email' };

const PRESETS = [PRIMARY_COLOR, '#0A7F5A', '#6D28D9', '#C2410C', '#BE123C', '#0F766E', '#1F2937'];

function toValues(settings: WidgetSettings): Values {
  return {
    title: settings.title_is_default ? '' : settings.title,
    color: settings.color.toUpperCase(),
    greeting: settings.greeting_is_default ? '' : settings.greeting,
    fields: settings.fields,
  };
}

/** A hex box and a picker for the same value. */
function ColorField({
  value = '',
  onChange,
  disabled,
}: {
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
}) {
  const valid = WIDGET_COLOR_PATTERN.test(value);
  return (
    <Space.Compact>
      <ColorPicker
        value={valid ? value : PRIMARY_COLOR}
        disabled={disabled}
        disabledAlpha
        presets={[{ label: 'Suggested', colors: PRESETS }]}
        onChangeComplete={(color) => onChange?.(color.toHexString().toUpperCase())}
      />
      <Input
        aria-label="Colour hex code"
        value={value}
        disabled={disabled}
        maxLength={7}
        style={{ width: 120, fontFamily: 'monospace' }}
        onChange={(e) => onChange?.(e.target.value.trim())}
      />
    </Space.Compact>
  );
}

/** Ask for the field or not, and whether the visitor must fill it in; a field not asked for is not required. */
function FieldRow({ name, disabled }: { name: WidgetFieldKey; disabled: boolean }) {
  const form = Form.useFormInstance<Values>();
  const ask = Form.useWatch(['fields', name, 'ask'], form) ?? false;
  return (
    <Flex align="center" gap={16}>
      <Form.Item name={['fields', name, 'ask']} valuePropName="checked" noStyle>
        <Switch
          aria-label={`Ask for ${FIELD_LABELS[name].toLowerCase()}`}
          disabled={disabled}
          onChange={(checked) => {
            if (!checked) form.setFieldValue(['fields', name, 'required'], false);
          }}
        />
      </Form.Item>
      <Form.Item name={['fields', name, 'required']} valuePropName="checked" noStyle>
        <Checkbox disabled={disabled || !ask} aria-label={`${FIELD_LABELS[name]} required`}>
          Required
        </Checkbox>
      </Form.Item>
    </Flex>
  );
}

export function WidgetSettingsForm({ settings, canManage }: Props) {
  const [form] = Form.useForm<Values>();
  const update = useUpdateWidgetSettings();
  const disabled = !canManage || update.isPending;

  useEffect(() => form.setFieldsValue(toValues(settings)), [settings, form]);

  const color = Form.useWatch('color', form) ?? settings.color;
  const title = Form.useWatch('title', form);
  const greeting = Form.useWatch('greeting', form);
  const fields = (Form.useWatch('fields', form) as WidgetFields | undefined) ?? settings.fields;
  const shownColor = WIDGET_COLOR_PATTERN.test(color) ? color : settings.color;
  const lowContrast = WIDGET_COLOR_PATTERN.test(color) && contrastWithWhite(color) < MIN_CONTRAST;
  const noContact = !fields.phone?.ask && !fields.email?.ask;

  const submit = (values: Values) => {
    update.mutate(
      {
        locationId: settings.location_id,
        title: values.title.trim() || null,
        color: values.color.toUpperCase(),
        greeting: values.greeting.trim() || null,
        fields: values.fields,
      },
      {
        onSuccess: () => notify.success('Chat widget saved: websites show it on their next page load'),
        onError: (error) => void showFieldErrors(form, error),
      },
    );
  };

  const restoreDefaults = () =>
    form.setFieldsValue({ title: '', color: PRIMARY_COLOR, greeting: '', fields: DEFAULT_FIELDS });

  return (
    <Flex gap={32} wrap align="flex-start">
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        disabled={disabled}
        initialValues={toValues(settings)}
        style={{ flex: '1 1 360px', maxWidth: 560 }}
      >
        <Form.Item
          label="Title"
          name="title"
          extra={`The chat's heading, beside your logo from Business profile. Up to ${WIDGET_MAX_TITLE_CHARS} characters. Leave it empty to show "${settings.default_title}".`}
        >
          <Input maxLength={WIDGET_MAX_TITLE_CHARS} placeholder={settings.default_title} />
        </Form.Item>
        <Form.Item
          label="Colour"
          name="color"
          rules={[
            { required: true, message: 'Choose a colour' },
            { pattern: WIDGET_COLOR_PATTERN, message: 'Give the colour as a hex code like #1E75FF' },
          ]}
          extra="The chat bubble, the header, the button and the visitor's messages."
        >
          <ColorField disabled={disabled} />
        </Form.Item>
        {lowContrast && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: -12, marginBottom: 24 }}
            title="White text is hard to read on this colour. A darker one works better."
          />
        )}
        <Form.Item
          label="Greeting"
          name="greeting"
          extra={`Up to ${WIDGET_MAX_GREETING_CHARS} characters. Leave it empty to say: "${settings.default_greeting}"`}
        >
          <Input.TextArea
            rows={3}
            maxLength={WIDGET_MAX_GREETING_CHARS}
            placeholder={settings.default_greeting}
          />
        </Form.Item>
        <Form.Item label="Before the chat starts, ask for" style={{ marginBottom: 8 }}>
          <Table<{ key: WidgetFieldKey }>
            size="small"
            pagination={false}
            dataSource={WIDGET_FIELDS.map((key) => ({ key }))}
            columns={[
              { title: 'Field', key: 'field', render: (_, row) => FIELD_LABELS[row.key] },
              {
                title: 'Ask · Required',
                key: 'ask',
                render: (_, row) => <FieldRow name={row.key} disabled={disabled} />,
              },
            ]}
          />
        </Form.Item>
        {noContact && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="Without a phone number or email, you can answer only while the visitor has the chat open."
          />
        )}
        {canManage && (
          <Space wrap style={{ marginTop: 8 }}>
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              Save widget
            </Button>
            <Button onClick={restoreDefaults}>Restore defaults</Button>
          </Space>
        )}
      </Form>
      <div style={{ flex: '0 1 380px', minWidth: 280 }}>
        <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
          Preview
        </Typography.Text>
        <WidgetPreview
          color={shownColor}
          greeting={greeting?.trim() || settings.default_greeting}
          title={title?.trim() || settings.default_title}
          subtitle={settings.subtitle}
          logo={settings.logo}
          fields={{ ...DEFAULT_FIELDS, ...fields }}
        />
      </div>
    </Flex>
  );
}
