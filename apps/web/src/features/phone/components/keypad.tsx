import { Button } from 'antd';

const KEYS: [string, string][] = [
  ['1', ''],
  ['2', 'ABC'],
  ['3', 'DEF'],
  ['4', 'GHI'],
  ['5', 'JKL'],
  ['6', 'MNO'],
  ['7', 'PQRS'],
  ['8', 'TUV'],
  ['9', 'WXYZ'],
  ['*', ''],
  ['0', '+'],
  ['#', ''],
];

/** The twelve keys of a phone. A long press on 0 gives '+'. */
export function Keypad({ onKey, label }: { onKey: (key: string) => void; label: string }) {
  let pressed: ReturnType<typeof setTimeout> | undefined;
  let long = false;
  return (
    <fieldset aria-label={label} className="phone-keypad">
      {KEYS.map(([key, letters]) => (
        <Button
          key={key}
          size="large"
          aria-label={key === '*' ? 'star' : key === '#' ? 'hash' : key}
          onPointerDown={() => {
            long = false;
            if (key === '0')
              pressed = setTimeout(() => {
                long = true;
                onKey('+');
              }, 600);
          }}
          onPointerUp={() => clearTimeout(pressed)}
          onClick={() => {
            if (!long) onKey(key);
          }}
        >
          <span className="phone-key">
            <span>{key}</span>
            <small>{letters || '\u00a0'}</small>
          </span>
        </Button>
      ))}
    </fieldset>
  );
}
