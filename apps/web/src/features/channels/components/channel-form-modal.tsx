import { type ChannelAccountJson, PROVIDERS, type Provider } from '@switchboard/shared';
import { Alert, Form, Input, Modal, Radio, Typography } from 'antd';
import { useEffect } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { useFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useCreateChannel } from '../api/create-channel.ts';
import { useUpdateChannel } from '../api/update-channel.ts';
import { PROVIDER_FIELDS, PROVIDER_NAMES } from '../types.ts';

type Props = {
  open: boolean;
  locationId: string;
  locationName: string;
  /** The account being edited; null to connect one. */
  account: ChannelAccountJson | null;
  onClose: () => void;
};

type Values = { provider: Provider; config: Record<string, string | undefined> };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Secrets are never shown again: when editing, an empty secret is left out of the request, and the server
 * keeps the stored value.
 */
function toConfig(provider: Provider, values: Values['config'], editing: boolean) {
  const config: Record<string, string | null> = {};
  for (const field of PROVIDER_FIELDS[provider]) {
    const value = values[field.name]?.trim() ?? '';
    if (value) config[field.name] = value;
    else if (field.optional) config[field.name] = null;
    else if (!(editing && field.secret)) config[field.name] = value;
  }
  return config;
}

export default function ChannelFormModal({ open, locationId, locationName, account, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const fieldErrors = useFieldErrors(form);
  const provider = Form.useWatch('provider', form) ?? account?.provider ?? 'twilio';
  const create = useCreateChannel();
  const update = useUpdateChannel();
  const saving = create.isPending || update.isPending;
  const editing = account !== null;
  const refusal = create.error ?? update.error;
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;

  useEffect(() => {
    if (!open) return;
    resetCreate();
    resetUpdate();
    form.resetFields();
    if (!account) {
      form.setFieldsValue({ provider: 'twilio', config: {} });
      return;
    }
    const config: Values['config'] = {};
    for (const field of PROVIDER_FIELDS[account.provider]) {
      config[field.name] = field.secret ? '' : text(account.config[field.name]);
    }
    form.setFieldsValue({ provider: account.provider, config });
  }, [open, account, form, resetCreate, resetUpdate]);

  const submit = (values: Values) => {
    const chosen = account?.provider ?? values.provider;
    const config = toConfig(chosen, values.config ?? {}, editing);
    const done = (message: string) => () => {
      notify.success(message);
      onClose();
    };
    const onError = fieldErrors.onError;
    if (account) update.mutate({ id: account.id, config }, { onSuccess: done('Channel saved'), onError });
    else
      create.mutate(
        { location_id: locationId, provider: chosen, config },
        { onSuccess: done(`${PROVIDER_NAMES[chosen]} connected`), onError },
      );
  };

  const title = editing
    ? `Edit ${PROVIDER_NAMES[account.provider]}`
    : `Connect an account to ${locationName}`;

  return (
    <Modal
      open={open}
      title={title}
      okText={editing ? 'Save' : 'Connect'}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      forceRender
      destroyOnHidden={false}
      width={560}
    >
      {refusal && fieldErrors.unplaced(refusal) && (
        // What the provider or the server said: the credentials, the number or page is not theirs, or taken.
        <Alert type="error" showIcon role="alert" title={failureText(refusal)} style={{ marginTop: 16 }} />
      )}
      <Form form={form} layout="vertical" onFinish={submit} disabled={saving} style={{ marginTop: 16 }}>
        <Form.Item label="Provider" name="provider" hidden={editing}>
          <Radio.Group
            optionType="button"
            options={PROVIDERS.map((p) => ({ value: p, label: PROVIDER_NAMES[p] }))}
          />
        </Form.Item>
        {PROVIDER_FIELDS[provider].map((field) => {
          const masked = editing ? text(account.config[field.name]) : '';
          const keepsSecret = editing && field.secret;
          const rules = [
            {
              required: !field.optional && !keepsSecret,
              whitespace: true,
              message: `Enter the ${field.label}.`,
            },
          ];
          const placeholder = keepsSecret ? `${masked || 'Saved'} (leave empty to keep)` : field.placeholder;
          return (
            <Form.Item
              key={`${provider}.${field.name}`}
              label={field.label}
              name={['config', field.name]}
              rules={rules}
              extra={field.optional ? 'Optional' : undefined}
            >
              {field.multiline ? (
                <Input.TextArea rows={5} placeholder={placeholder} spellCheck={false} />
              ) : field.secret ? (
                <Input.Password placeholder={placeholder} autoComplete="new-password" />
              ) : (
                <Input placeholder={placeholder} autoComplete="off" />
              )}
            </Form.Item>
          );
        })}
        {provider === 'twilio' && (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            Give the phone number or the Messaging Service SID that customers text.
          </Typography.Paragraph>
        )}
      </Form>
    </Modal>
  );
}
