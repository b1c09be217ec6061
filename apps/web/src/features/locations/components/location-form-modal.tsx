import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { TimezoneSelect } from '@/components/timezone-select.tsx';
import { notify } from '@/lib/notifier.ts';
import { useCreateLocation } from '../api/create-location.ts';
import { useUpdateLocation } from '../api/update-location.ts';
import type { Location, LocationInput } from '../types.ts';

type Props = {
  open: boolean;
  /** The location being edited; null to add one. */
  location: Location | null;
  defaultTimezone: string;
  onClose: () => void;
};

type Values = {
  name: string;
  address?: string;
  timezone?: string;
  phone_number?: string;
  email_address?: string;
};

const orNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

function toInput(values: Values): LocationInput {
  return {
    name: values.name.trim(),
    address: orNull(values.address),
    timezone: orNull(values.timezone),
    phone_number: orNull(values.phone_number),
    email_address: orNull(values.email_address),
  };
}

export default function LocationFormModal({ open, location, defaultTimezone, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const create = useCreateLocation();
  const update = useUpdateLocation();
  const saving = create.isPending || update.isPending;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({
      name: location?.name ?? '',
      address: location?.address ?? '',
      timezone: location?.timezone ?? defaultTimezone,
      phone_number: location?.phone_number ?? '',
      email_address: location?.email_address ?? '',
    });
  }, [open, location, defaultTimezone, form]);

  const submit = (values: Values) => {
    const input = toInput(values);
    const done = (text: string) => () => {
      notify.success(text);
      onClose();
    };
    if (location) update.mutate({ id: location.id, ...input }, { onSuccess: done('Location saved') });
    else create.mutate(input, { onSuccess: done('Location added') });
  };

  return (
    <Modal
      open={open}
      title={location ? 'Edit location' : 'Add location'}
      okText={location ? 'Save' : 'Add location'}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      forceRender
      destroyOnHidden={false}
    >
      <Form form={form} layout="vertical" onFinish={submit} disabled={saving} style={{ marginTop: 16 }}>
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true }, { max: 200 }]}>
          <Input placeholder="e.g. Harbourside Dental Docklands" />
        </Form.Item>
        <Form.Item label="Address" name="address" rules={[{ max: 500 }]}>
          <Input placeholder="Street, suburb, state and postcode" />
        </Form.Item>
        <Form.Item label="Time zone" name="timezone">
          <TimezoneSelect />
        </Form.Item>
        <Form.Item label="Phone number" name="phone_number" rules={[{ max: 40 }]}>
          <Input placeholder="+61 491 570 156" inputMode="tel" />
        </Form.Item>
        <Form.Item label="Email address" name="email_address" rules={[{ type: 'email' }]}>
          <Input placeholder="frontdesk@example.com" inputMode="email" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
