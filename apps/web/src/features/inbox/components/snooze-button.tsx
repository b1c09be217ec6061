import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Dropdown, Input, type MenuProps, Modal, Tooltip } from 'antd';
import { useState } from 'react';
import type { EnquiryRow } from '../types.ts';

const HOUR = 3_600_000;

/** 9:00 on the day `days` from today, in the browser's time. */
function morning(days: number): Date {
  const d = new Date();
  d.setDate(d.getDate() + days);
  d.setHours(9, 0, 0, 0);
  return d;
}

/** Next Monday at 9:00 (a week on, when today is Monday). */
function nextWeek(): Date {
  const day = new Date().getDay();
  return morning((8 - day) % 7 || 7);
}

export function snoozedUntil(enquiry: EnquiryRow): Date | null {
  if (!enquiry.snoozed_until) return null;
  const until = new Date(enquiry.snoozed_until);
  return until.getTime() > Date.now() ? until : null;
}

export const formatWake = (d: Date) =>
  d.toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });

/** The local "YYYY-MM-DDTHH:mm" a datetime-local input takes. */
const localInput = (d: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/**
 * Snooze: the enquiry leaves the Open list until the chosen time, then comes back by itself (its assignee is
 * told). Later today, tomorrow morning, next week, or a time picked; a snoozed one can be woken now.
 */
export function SnoozeButton({
  enquiry,
  onSnooze,
  busy,
}: {
  enquiry: EnquiryRow;
  onSnooze: (until: string | null) => void;
  busy: boolean;
}) {
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState('');
  const asleep = snoozedUntil(enquiry);
  const choices: { key: string; label: string; at: Date }[] = [
    { key: 'later', label: 'Later today (in 3 hours)', at: new Date(Date.now() + 3 * HOUR) },
    { key: 'tomorrow', label: `Tomorrow morning (${formatWake(morning(1))})`, at: morning(1) },
    { key: 'week', label: `Next week (${formatWake(nextWeek())})`, at: nextWeek() },
  ];
  const items: MenuProps['items'] = [
    ...choices.map(({ key, label }) => ({ key, label })),
    { key: 'pick', label: 'Pick a time…' },
    ...(asleep ? [{ type: 'divider' as const }, { key: 'wake', label: 'Wake it now' }] : []),
  ];
  const pickedAt = picked ? new Date(picked) : null;
  const pickedValid =
    pickedAt !== null && !Number.isNaN(pickedAt.getTime()) && pickedAt.getTime() > Date.now();

  return (
    <>
      <Dropdown
        trigger={['click']}
        disabled={enquiry.status !== 'open'}
        menu={{
          items,
          onClick: ({ key }) => {
            if (key === 'wake') return onSnooze(null);
            if (key === 'pick') {
              setPicked(localInput(morning(1)));
              return setPicking(true);
            }
            const choice = choices.find((c) => c.key === key);
            if (choice) onSnooze(choice.at.toISOString());
          },
        }}
      >
        <Tooltip
          title={
            enquiry.status === 'open' ? 'Snooze: hide it from Open until later' : 'Reopen it to snooze it'
          }
        >
          <Button
            icon={<ClockCircleOutlined />}
            aria-label="Snooze"
            loading={busy}
            type={asleep ? 'primary' : 'default'}
            ghost={Boolean(asleep)}
          />
        </Tooltip>
      </Dropdown>
      <Modal
        title="Snooze until"
        open={picking}
        okText="Snooze"
        okButtonProps={{ disabled: !pickedValid }}
        onOk={() => {
          if (!pickedAt || !pickedValid) return;
          onSnooze(pickedAt.toISOString());
          setPicking(false);
        }}
        onCancel={() => setPicking(false)}
      >
        <Input
          type="datetime-local"
          aria-label="Snooze until"
          value={picked}
          min={localInput(new Date())}
          onChange={(e) => setPicked(e.target.value)}
        />
        {picked && !pickedValid && (
          <p role="alert" style={{ color: 'var(--ib-error, #cf1322)', margin: '8px 0 0' }}>
            Choose a time in the future.
          </p>
        )}
      </Modal>
    </>
  );
}
