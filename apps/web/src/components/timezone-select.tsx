import { Select, type SelectProps } from 'antd';
import { useMemo } from 'react';

const FALLBACK_ZONES = [
  'Australia/Melbourne',
  'Australia/Sydney',
  'Australia/Brisbane',
  'Australia/Perth',
  'UTC',
];

function timezones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return FALLBACK_ZONES;
  }
}

/** Every IANA time zone the browser knows, searchable by any part of its name. */
export function TimezoneSelect(props: Omit<SelectProps<string>, 'options'>) {
  const options = useMemo(() => {
    const zones = timezones();
    const value = typeof props.value === 'string' ? props.value : undefined;
    // A zone saved on the server that this browser does not list must still show as the current value.
    const all = value && !zones.includes(value) ? [value, ...zones] : zones;
    return all.map((z) => ({ value: z, label: z.replaceAll('_', ' ') }));
  }, [props.value]);

  return <Select showSearch={{ optionFilterProp: 'label' }} options={options} {...props} />;
}
