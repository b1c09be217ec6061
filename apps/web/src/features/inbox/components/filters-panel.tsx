import { CHANNELS } from '@switchboard/shared';
import { Button, DatePicker, Flex, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useLabels } from '@/lib/labels.ts';
import { useMembers } from '../api/get-members.ts';
import type { EnquiryFilters } from '../types.ts';
import { channelName } from './channel.tsx';

const CHANNEL_OPTIONS = CHANNELS.map((c) => ({ value: c, label: channelName(c) }));

type Range = [Dayjs | null, Dayjs | null] | null;

const PRESETS = [
  { label: 'Today', value: [dayjs().startOf('day'), dayjs().endOf('day')] as [Dayjs, Dayjs] },
  { label: 'Last 7 days', value: [dayjs().subtract(6, 'day'), dayjs()] as [Dayjs, Dayjs] },
  { label: 'Last 30 days', value: [dayjs().subtract(29, 'day'), dayjs()] as [Dayjs, Dayjs] },
];

/**
 * The list's filters (spec §3: start_date, end_date, channels, assigned_to, source, medium), applied together. Loaded
 * when first opened: the date picker is too heavy to hold up the inbox's first paint.
 */
export default function FiltersPanel({
  value,
  onApply,
}: {
  value: EnquiryFilters;
  onApply: (filters: EnquiryFilters) => void;
}) {
  const [channels, setChannels] = useState(value.channels);
  const [range, setRange] = useState<Range>(
    value.start_date || value.end_date
      ? [value.start_date ? dayjs(value.start_date) : null, value.end_date ? dayjs(value.end_date) : null]
      : null,
  );
  const [source, setSource] = useState(value.source ?? '');
  const [medium, setMedium] = useState(value.medium ?? '');
  const [assignedTo, setAssignedTo] = useState(value.assigned_to);
  const [label, setLabel] = useState(value.label);
  const members = useMembers();
  const labels = useLabels();

  const apply = () => {
    const start = range?.[0] ?? range?.[1] ?? null;
    const end = range?.[1] ?? range?.[0] ?? null;
    onApply({
      q: value.q,
      channels,
      start_date: start?.format('YYYY-MM-DD'),
      end_date: end?.format('YYYY-MM-DD'),
      source: source.trim() || undefined,
      medium: medium.trim() || undefined,
      assigned_to: assignedTo,
      label,
    });
  };

  return (
    <Form layout="vertical" style={{ width: 300 }} onFinish={apply} requiredMark={false}>
      <Form.Item label="Channels" htmlFor="ib-filter-channels" style={{ marginBottom: 12 }}>
        <Select
          id="ib-filter-channels"
          mode="multiple"
          allowClear
          placeholder="All channels"
          value={channels}
          onChange={setChannels}
          options={CHANNEL_OPTIONS}
          maxTagCount="responsive"
          optionFilterProp="label"
        />
      </Form.Item>
      <Form.Item label="Assigned to" htmlFor="ib-filter-assigned" style={{ marginBottom: 12 }}>
        <Select
          id="ib-filter-assigned"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="Anyone"
          value={assignedTo}
          onChange={(next: string | undefined) => setAssignedTo(next)}
          loading={members.isPending}
          options={(members.data ?? []).map((m) => ({ value: m.user_id, label: m.full_name || m.email }))}
        />
      </Form.Item>
      <Form.Item label="Label" htmlFor="ib-filter-label" style={{ marginBottom: 12 }}>
        <Select
          id="ib-filter-label"
          allowClear
          placeholder="Any label"
          value={label}
          onChange={(next: string | undefined) => setLabel(next)}
          loading={labels.isPending}
          options={(labels.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
        />
      </Form.Item>
      <Form.Item label="Last activity" htmlFor="ib-filter-dates" style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          id={{ start: 'ib-filter-dates' }}
          value={range}
          onChange={(next) => setRange(next)}
          allowEmpty={[true, true]}
          format="D MMM YYYY"
          presets={PRESETS}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          style={{ width: '100%' }}
        />
      </Form.Item>
      <Flex gap={8}>
        <Form.Item label="Source" htmlFor="ib-filter-source" style={{ flex: 1, marginBottom: 16 }}>
          <Input
            id="ib-filter-source"
            placeholder="e.g. google"
            value={source}
            onChange={(e) => setSource(e.target.value)}
          />
        </Form.Item>
        <Form.Item label="Medium" htmlFor="ib-filter-medium" style={{ flex: 1, marginBottom: 16 }}>
          <Input
            id="ib-filter-medium"
            placeholder="e.g. cpc"
            value={medium}
            onChange={(e) => setMedium(e.target.value)}
          />
        </Form.Item>
      </Flex>
      <Flex justify="space-between">
        <Button
          type="text"
          onClick={() => {
            setChannels([]);
            setRange(null);
            setSource('');
            setMedium('');
            setAssignedTo(undefined);
            setLabel(undefined);
          }}
        >
          Reset
        </Button>
        <Button type="primary" htmlType="submit">
          Apply filters
        </Button>
      </Flex>
    </Form>
  );
}
