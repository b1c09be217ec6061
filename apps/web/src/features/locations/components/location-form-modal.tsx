import {
  type Holiday,
  MISSED_CALL_TEXT_MAX,
  type OpeningHours,
  REPLY_TIME_TEXT,
  REPLY_TIMES,
  type ReplyTime,
  unknownPlaceholders,
} from '@switchboard/shared';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { TimezoneSelect } from '@/components/timezone-select.tsx';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useCreateLocation } from '../api/create-location.ts';
import { useUpdateLocation } from '../api/update-location.ts';
import type { Location, LocationInput } from '../types.ts';
import { holidaysProblem, holidaysToSave } from '../utils/holidays.ts';
import { HolidaysInput } from './holidays-input.tsx';
import { hoursProblem, OpeningHoursInput } from './opening-hours-input.tsx';
import { TrackingNumbers } from './tracking-numbers.tsx';

const REPLY_TIME_OPTIONS = REPLY_TIMES.map((t) => ({ value: t, label: `Within ${REPLY_TIME_TEXT[t]}` }));

type Props = {
  open: boolean;
  /** The location being edited; null to add one. */
  location: Location | null;
  defaultTimezone: string;
  /** Calling is on for the business (its tracking numbers are shown only then). */
  calls: boolean;
  onClose: () => void;
};

type Values = {
  name: string;
  address?: string;
  timezone?: string;
  phone_number?: string;
  email_address?: string;
  opening_hours: OpeningHours | null;
  holidays: Holiday[];
  reply_time?: ReplyTime | null;
  missed_call_text?: string;
};

const orNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

function toInput(values: Values): LocationInput {
  return {
    name: values.name.trim(),
    address: orNull(values.address),
    timezone: orNull(values.timezone),
    phone_number: orNull(values.phone_number),
    email_address: orNull(values.email_address),
    opening_hours: values.opening_hours,
    holidays: holidaysToSave(values.holidays),
    reply_time: values.reply_time ?? null,
    missed_call_text: orNull(values.missed_call_text),
  };
}

export default function LocationFormModal({ open, location, defaultTimezone, calls, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const create = useCreateLocation();
  const update = useUpdateLocation();
  const saving = create.isPending || update.isPending;
  const timezone = Form.useWatch('timezone', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({
      name: location?.name ?? '',
      address: location?.address ?? '',
      timezone: location?.timezone ?? defaultTimezone,
      phone_number: location?.phone_number ?? '',
      email_address: location?.email_address ?? '',
      opening_hours: location?.opening_hours ?? null,
      holidays: location?.holidays ?? [],
      reply_time: location?.reply_time ?? null,
      missed_call_text: location?.missed_call_text ?? '',
    });
  }, [open, location, defaultTimezone, form]);

  const submit = (values: Values) => {
    const input = toInput(values);
    const done = (text: string) => () => {
      notify.success(text);
      onClose();
    };
    // The server's notice says what it refused; each field it names is also shown under that field.
    const onError = (error: unknown) => void showFieldErrors(form, error);
    if (location)
      update.mutate({ id: location.id, ...input }, { onSuccess: done('Location saved'), onError });
    else create.mutate(input, { onSuccess: done('Location added'), onError });
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
          <Input placeholder="e.g. City centre, or the street it is on" />
        </Form.Item>
        <Form.Item label="Address" name="address" rules={[{ max: 500 }]}>
          <Input placeholder="Street, suburb, state and postcode" />
        </Form.Item>
        <Form.Item label="Time zone" name="timezone">
          <TimezoneSelect />
        </Form.Item>
        <Form.Item
          label="Phone number"
          name="phone_number"
          rules={[{ max: 40 }]}
          extra="The number customers call and text. A landline takes calls only: get a number for texting in Channels & forms."
        >
          <Input placeholder="+61 491 570 156" inputMode="tel" />
        </Form.Item>
        <Form.Item label="Email address" name="email_address" rules={[{ type: 'email' }]}>
          <Input placeholder="frontdesk@example.com" inputMode="email" />
        </Form.Item>
        <Form.Item
          label="Opening hours"
          name="opening_hours"
          extra="Outside these hours calls go to voicemail and the website chat says when you open again."
          rules={[
            {
              validator: (_, value: OpeningHours | null) => {
                const problem = hoursProblem(value);
                return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
              },
            },
          ]}
        >
          <OpeningHoursInput />
        </Form.Item>
        <Form.Item
          label="Holidays"
          name="holidays"
          // Not the whole list in red for one row: the list marks the rows at fault itself.
          validateStatus=""
          extra="Closed all day: calls go to voicemail, the chat says when you open again, and response times do not count these days."
          rules={[
            {
              validator: (_, value: Holiday[] | undefined) => {
                const problem = holidaysProblem(value ?? []);
                return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
              },
            },
          ]}
        >
          <HolidaysInput timezone={timezone} />
        </Form.Item>
        <Form.Item
          label="Usually replies"
          name="reply_time"
          extra="Told to website visitors while you are open."
        >
          <Select allowClear placeholder="Not said" options={REPLY_TIME_OPTIONS} />
        </Form.Item>
        <Form.Item
          label="Text back after a missed call"
          name="missed_call_text"
          extra="Sent by SMS to a caller nobody answered. Leave it empty to send nothing. You can use {first_name}, {business_name}, {location_name} and {business_day}."
          rules={[
            { max: MISSED_CALL_TEXT_MAX },
            {
              validator: (_, value: string | undefined) => {
                const unknown = value ? unknownPlaceholders(value) : [];
                return unknown.length
                  ? Promise.reject(
                      new Error(`Unknown placeholder: ${unknown.map((u) => `{${u}}`).join(', ')}`),
                    )
                  : Promise.resolve();
              },
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder="Sorry we missed your call! Reply here and we'll get back to you, or we'll call you {business_day}."
          />
        </Form.Item>
      </Form>
      {location && calls && <TrackingNumbers locationId={location.id} />}
    </Modal>
  );
}
