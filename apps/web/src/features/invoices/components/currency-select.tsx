import { CURRENCIES } from '@switchboard/shared';
import { Select } from 'antd';

const OPTIONS = CURRENCIES.map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` }));

/** An ISO 4217 currency, found by typing its code or its name ("yen", "JPY"). */
export function CurrencySelect({
  value,
  onChange,
  id,
  width = 240,
}: {
  value?: string;
  onChange?: (code: string) => void;
  id?: string;
  width?: number | string;
}) {
  return (
    <Select
      id={id}
      showSearch={{ optionFilterProp: 'label' }}
      aria-label="Currency"
      value={value}
      onChange={onChange}
      options={OPTIONS}
      style={{ width, maxWidth: '100%' }}
      popupMatchSelectWidth={false}
    />
  );
}
