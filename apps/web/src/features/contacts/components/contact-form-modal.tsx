import { Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useCreateBusinessContact } from '../api/create-business-contact.ts';
import { useUpdateBusinessContact } from '../api/update-business-contact.ts';
import type { BusinessEmail, BusinessPhone, ContactInput, ContactKind } from '../types.ts';
import type { ContactKindConfig } from './contact-kinds.ts';

export type LocationOption = { value: string; label: string };

type Props = {
  config: ContactKindConfig;
  open: boolean;
  record: BusinessPhone | BusinessEmail | null;
  locations: LocationOption[];
  onClose: () => void;
};

type Values = { label?: string; value: string; location_id?: string | null };

const ALL_LOCATIONS = '';

function contactValue(record: BusinessPhone | BusinessEmail): string {
  return 'phone' in record ? record.phone : record.email;
}

/** The server's names for the one box this form has. */
const CONTACT_FIELDS = { phone: 'value', email: 'value' } as const;

function toInput(kind: ContactKind, values: Values): ContactInput<ContactKind> {
  const label = values.label?.trim() ? values.label.trim() : null;
  const location_id = values.location_id ? values.location_id : null;
  const value = values.value.trim();
  return kind === 'phone' ? { label, phone: value, location_id } : { label, email: value, location_id };
}

export default function ContactFormModal({ config, open, record, locations, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const create = useCreateBusinessContact(config.kind);
  const update = useUpdateBusinessContact(config.kind);
  const saving = create.isPending || update.isPending;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({
      label: record?.label ?? '',
      value: record ? contactValue(record) : '',
      location_id: record?.location_id ?? ALL_LOCATIONS,
    });
  }, [open, record, form]);

  const submit = (values: Values) => {
    const input = toInput(config.kind, values);
    const done = (text: string) => () => {
      notify.success(text);
      onClose();
    };
    const capitalised = config.noun.charAt(0).toUpperCase() + config.noun.slice(1);
    // The server's notice says what it refused; the number or address is also marked in its box.
    const onError = (error: unknown) => void showFieldErrors(form, error, CONTACT_FIELDS);
    if (record) update.mutate({ id: record.id, input }, { onSuccess: done(`${capitalised} saved`), onError });
    else create.mutate(input, { onSuccess: done(`${capitalised} added`), onError });
  };

  return (
    <Modal
      open={open}
      title={record ? `Edit ${config.noun}` : `Add ${config.noun}`}
      okText={record ? 'Save' : 'Add'}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit} disabled={saving} style={{ marginTop: 16 }}>
        <Form.Item label={config.fieldLabel} name="value" rules={config.rules}>
          <Input placeholder={config.placeholder} inputMode={config.inputMode} />
        </Form.Item>
        <Form.Item
          label="Label"
          name="label"
          rules={[{ max: 100 }]}
          extra="What your team calls it, e.g. Front desk."
        >
          <Input placeholder="Front desk" />
        </Form.Item>
        <Form.Item label="Location" name="location_id">
          <Select options={[{ value: ALL_LOCATIONS, label: 'All locations' }, ...locations]} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
