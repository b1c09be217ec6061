import { CalendarOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { HOLIDAYS_MAX, type Holiday } from '@switchboard/shared';
import { Button, DatePicker, Flex, Form, Input, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { holidayRowsAtFault } from '../utils/holidays.ts';
import { PublicHolidaysPicker } from './public-holidays-picker.tsx';

const DAY = 'YYYY-MM-DD';
/** Shown as the first; a date typed in any of them is taken (people paste ISO dates from elsewhere). */
const TYPED_FORMATS = ['D MMM YYYY', DAY, 'D MMMM YYYY', 'D MMM YY'];

/**
 * Days the location is closed whatever its weekly hours say (public holidays, a closure): calls go to
 * voicemail, the chat says when it opens again, and response times do not count them.
 */
export function HolidaysInput({
  value = [],
  onChange,
  timezone,
}: {
  value?: Holiday[];
  onChange?: (value: Holiday[]) => void;
  /** The location's zone, to suggest where its public holidays are kept. */
  timezone?: string;
}) {
  // The form item's own colour is off (see the location form): only the rows at fault turn red, once it refused.
  const { errors } = Form.Item.useStatus();
  const faulty = errors.length > 0 ? holidayRowsAtFault(value) : new Set<number>();
  const [picking, setPicking] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const addPublic = (holidays: { date: string; name: string }[]) => {
    const listed = new Set(value.map((h) => h.date));
    const fresh = holidays.filter((h) => !listed.has(h.date));
    const room = Math.max(0, HOLIDAYS_MAX - value.length);
    onChange?.(
      [...value, ...fresh.slice(0, room)].sort((a, b) => (a.date || '9').localeCompare(b.date || '9')),
    );
    const kept = holidays.length - fresh.length;
    const left = fresh.length - Math.min(fresh.length, room);
    setAdded(
      `Added ${Math.min(fresh.length, room)} public holidays` +
        (kept ? `; ${kept} were already listed` : '') +
        (left ? `; ${left} did not fit (at most ${HOLIDAYS_MAX})` : '') +
        '. Save to keep them.',
    );
    setPicking(false);
  };
  const set = (i: number, holiday: Holiday) => onChange?.(value.map((h, j) => (j === i ? holiday : h)));
  const today = dayjs().format(DAY);
  const dated = value.filter((h) => h.date);
  const upcoming = dated.filter((h) => h.date >= today).length;
  return (
    <Flex vertical gap={8}>
      {value.length === 0 && (
        <Typography.Text type="secondary">No holidays: the weekly hours apply every day.</Typography.Text>
      )}
      {dated.length > 0 && (
        <Typography.Text type="secondary">
          {upcoming === 1 ? '1 holiday to come' : `${upcoming} holidays to come`}
          {dated.length > upcoming ? `, ${dated.length - upcoming} past` : ''}
        </Typography.Text>
      )}
      {value.map((h, i) => (
        // Every field of a row is controlled, so a row is only its place in the list.
        // biome-ignore lint/suspicious/noArrayIndexKey: a new row has no date to key it by yet
        <Flex key={i} gap={8} align="center">
          <DatePicker
            aria-label={`Holiday ${i + 1} date`}
            value={h.date ? dayjs(h.date) : null}
            format={TYPED_FORMATS}
            status={faulty.has(i) ? 'error' : undefined}
            allowClear={false}
            onChange={(day) => set(i, { ...h, date: day ? day.format(DAY) : '' })}
            style={{ width: 136, flex: 'none' }}
          />
          <Input
            aria-label={`Holiday ${i + 1} name`}
            placeholder="Name, e.g. Christmas Day"
            value={h.name ?? ''}
            maxLength={100}
            onChange={(e) => set(i, { ...h, name: e.target.value })}
            style={{ flex: '1 1 0', minWidth: 0 }}
          />
          <Button
            type="text"
            icon={<DeleteOutlined />}
            aria-label={`Remove holiday ${i + 1}`}
            onClick={() => onChange?.(value.filter((_, j) => j !== i))}
          />
        </Flex>
      ))}
      {added && <Typography.Text type="success">{added}</Typography.Text>}
      {picking ? (
        <PublicHolidaysPicker timezone={timezone} onAdd={addPublic} onClose={() => setPicking(false)} />
      ) : (
        <Flex gap={8} wrap>
          <Button
            icon={<PlusOutlined />}
            disabled={value.length >= HOLIDAYS_MAX}
            onClick={() => onChange?.([...value, { date: '', name: null }])}
          >
            Add holiday
          </Button>
          <Button
            icon={<CalendarOutlined />}
            disabled={value.length >= HOLIDAYS_MAX}
            onClick={() => {
              setAdded(null);
              setPicking(true);
            }}
          >
            Add public holidays
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
