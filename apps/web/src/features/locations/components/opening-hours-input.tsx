import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type OpeningHours,
  type OpenPeriod,
  periodsProblem,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type Weekday,
} from '@switchboard/shared';
import { Button, Flex, Radio, Switch, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

/** Monday first, the way a week of opening hours is read. */
const WEEK: Weekday[] = [...WEEKDAYS.slice(1), WEEKDAYS[0]];
const DAY_NAME = Object.fromEntries(WEEKDAYS.map((d, i) => [d, WEEKDAY_NAMES[i]])) as Record<Weekday, string>;
const NINE_TO_FIVE: OpenPeriod = { open: '09:00', close: '17:00' };

/** What a business usually keeps: weekdays nine to five, closed at the weekend. */
export const USUAL_HOURS: OpeningHours = {
  sun: [],
  mon: [NINE_TO_FIVE],
  tue: [NINE_TO_FIVE],
  wed: [NINE_TO_FIVE],
  thu: [NINE_TO_FIVE],
  fri: [NINE_TO_FIVE],
  sat: [],
};

const FORMAT = 'HH:mm';
const toTime = (text: string): Dayjs => dayjs(`2000-01-01T${text === '24:00' ? '00:00' : text}`);
// A period that closes at 00:00 runs to midnight.
const fromTime = (edge: 'open' | 'close', time: Dayjs): string =>
  edge === 'close' && time.format(FORMAT) === '00:00' ? '24:00' : time.format(FORMAT);

/** The first day whose periods are wrong, said the way the server would refuse it; null when all are right. */
export function hoursProblem(hours: OpeningHours | null): string | null {
  if (!hours) return null;
  for (const day of WEEK) {
    const problem = periodsProblem(hours[day]);
    if (problem) return `${DAY_NAME[day]}: ${problem}`;
  }
  return null;
}

/**
 * A location's opening hours: always open, or each day's open periods (several for a lunch break; an end
 * of 00:00 is midnight). Calls outside them go to voicemail and the website chat says when it opens.
 */
export function OpeningHoursInput({
  value = null,
  onChange,
}: {
  value?: OpeningHours | null;
  onChange?: (value: OpeningHours | null) => void;
}) {
  const setDay = (day: Weekday, periods: OpenPeriod[]) => value && onChange?.({ ...value, [day]: periods });
  return (
    <Flex vertical gap={8}>
      <Radio.Group
        value={value ? 'set' : 'always'}
        onChange={(e) => onChange?.(e.target.value === 'set' ? USUAL_HOURS : null)}
        options={[
          { value: 'always', label: 'Always open' },
          { value: 'set', label: 'Set opening hours' },
        ]}
      />
      {value && (
        <Flex vertical gap={6} role="group" aria-label="Opening hours">
          {WEEK.map((day) => {
            const periods = value[day];
            const open = periods.length > 0;
            return (
              <Flex key={day} gap={8} align="start" wrap>
                <Flex gap={8} align="center" style={{ width: 150 }}>
                  <Switch
                    size="small"
                    checked={open}
                    aria-label={`Open on ${DAY_NAME[day]}`}
                    onChange={(on) => setDay(day, on ? [NINE_TO_FIVE] : [])}
                  />
                  <Typography.Text>{DAY_NAME[day]}</Typography.Text>
                </Flex>
                {open ? (
                  <Flex vertical gap={4} style={{ flex: '1 1 200px', minWidth: 0 }}>
                    {periods.map((p, i) => (
                      // A day's stretches have no identity beyond their place in the day.
                      // biome-ignore lint/suspicious/noArrayIndexKey: the n-th stretch of the day stays the n-th
                      <Flex key={i} gap={4} align="center">
                        {(['open', 'close'] as const).map((edge) => (
                          <TimePicker
                            key={edge}
                            format={FORMAT}
                            minuteStep={5}
                            allowClear={false}
                            needConfirm={false}
                            showNow={false}
                            value={toTime(p[edge])}
                            placeholder={edge === 'open' ? 'Opens' : 'Closes'}
                            aria-label={`${DAY_NAME[day]} ${edge === 'open' ? 'opens' : 'closes'} (${i + 1})`}
                            onChange={(time) => {
                              if (!time) return;
                              setDay(
                                day,
                                periods.map((q, j) => (j === i ? { ...q, [edge]: fromTime(edge, time) } : q)),
                              );
                            }}
                            style={{ flex: 1, minWidth: 0 }}
                          />
                        ))}
                        {periods.length > 1 && (
                          <Button
                            type="text"
                            icon={<DeleteOutlined />}
                            aria-label={`Remove ${DAY_NAME[day]} ${p.open}–${p.close}`}
                            onClick={() =>
                              setDay(
                                day,
                                periods.filter((_, j) => j !== i),
                              )
                            }
                          />
                        )}
                      </Flex>
                    ))}
                    {periods.length < 6 && (
                      <Button
                        type="link"
                        size="small"
                        icon={<PlusOutlined />}
                        style={{ alignSelf: 'start', paddingInline: 0 }}
                        onClick={() => {
                          const last = periods.at(-1)?.close ?? '09:00';
                          const start = last === '24:00' ? '23:00' : last;
                          setDay(day, [...periods, { open: start, close: '24:00' }]);
                        }}
                      >
                        Add hours
                      </Button>
                    )}
                  </Flex>
                ) : (
                  <Typography.Text type="secondary" style={{ lineHeight: '32px' }}>
                    Closed
                  </Typography.Text>
                )}
              </Flex>
            );
          })}
        </Flex>
      )}
    </Flex>
  );
}
