import { SoundOutlined } from '@ant-design/icons';
import { CALL_RINGTONES, type CallRingtone } from '@switchboard/shared';
import { Alert, Button, Flex, Form, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { useUpdateMe } from '@/lib/update-me.ts';
import { playOnce, RINGTONE_LABELS } from '../lib/ringtones.ts';
import { usePhoneStore } from '../stores/phone-store.ts';

type Listed = { input: MediaDeviceInfo[]; output: MediaDeviceInfo[] };

/** The devices the browser lists; their names only once the microphone has been allowed. */
function useDevices() {
  const [devices, setDevices] = useState<Listed>({ input: [], output: [] });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!media?.enumerateDevices) {
      setError('This browser does not let the page choose audio devices.');
      return;
    }
    const read = () =>
      media
        .enumerateDevices()
        .then((all) =>
          setDevices({
            input: all.filter((d) => d.kind === 'audioinput'),
            output: all.filter((d) => d.kind === 'audiooutput'),
          }),
        )
        .catch(() => setError('The browser would not list its audio devices.'));
    void read();
    media.addEventListener('devicechange', read);
    return () => media.removeEventListener('devicechange', read);
  }, []);
  return { devices, error };
}

const options = (list: MediaDeviceInfo[], kind: string) => [
  { value: '', label: `System default ${kind}` },
  ...list
    .filter((d) => d.deviceId && d.deviceId !== 'default')
    .map((d, i) => ({
      value: d.deviceId,
      label: d.label || `${kind[0]?.toUpperCase()}${kind.slice(1)} ${i + 1}`,
    })),
];

/** Microphone, speaker and ringing device (remembered in this browser), a speaker test, and the call ringtone. */
export function AudioSettings() {
  const { devices, error } = useDevices();
  const chosen = usePhoneStore((s) => s.devices);
  const ringtone = usePhoneStore((s) => s.ringtone);
  const select = usePhoneStore((s) => s.selectDevices);
  const saveRingtone = useUpdateMe();
  const [testError, setTestError] = useState<string | null>(null);
  const canChooseOutput =
    typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

  const test = (sink: string | null, tone: CallRingtone) => {
    setTestError(null);
    playOnce(tone, sink).catch((e: Error) => setTestError(e.message));
  };

  return (
    <Form layout="vertical" requiredMark={false}>
      {error && <Alert type="warning" showIcon message={error} style={{ marginBottom: 12 }} />}
      {devices.input.every((d) => !d.label) && devices.input.length > 0 && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          The device names show once the browser has been allowed to use the microphone (on your first call).
        </Typography.Paragraph>
      )}
      <Form.Item label="Microphone" htmlFor="phone-mic">
        <Select
          id="phone-mic"
          value={chosen.input ?? ''}
          options={options(devices.input, 'microphone')}
          onChange={(v) => select({ input: v || null })}
        />
      </Form.Item>
      <Form.Item
        label="Speaker"
        htmlFor="phone-speaker"
        extra={canChooseOutput ? undefined : 'This browser plays calls on the system’s speaker.'}
      >
        <Space.Compact style={{ width: '100%' }}>
          <Select
            id="phone-speaker"
            disabled={!canChooseOutput}
            value={chosen.output ?? ''}
            options={options(devices.output, 'speaker')}
            onChange={(v) => select({ output: v || null })}
            style={{ flex: 1, minWidth: 0 }}
          />
          <Button icon={<SoundOutlined />} onClick={() => test(chosen.output, 'chime')}>
            Test speaker
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item label="Ring on" htmlFor="phone-ringer">
        <Select
          id="phone-ringer"
          disabled={!canChooseOutput}
          value={chosen.ringing ?? ''}
          options={options(devices.output, 'speaker')}
          onChange={(v) => select({ ringing: v || null })}
        />
      </Form.Item>
      <Form.Item label="Ringtone" htmlFor="phone-ringtone" style={{ marginBottom: 0 }}>
        <Flex gap={8}>
          <Select
            id="phone-ringtone"
            value={ringtone}
            loading={saveRingtone.isPending}
            options={CALL_RINGTONES.map((r) => ({ value: r, label: RINGTONE_LABELS[r] }))}
            onChange={(r: CallRingtone) => {
              usePhoneStore.setState({ ringtone: r });
              saveRingtone.mutate({ ringtone_call: r });
              test(chosen.ringing, r);
            }}
            style={{ flex: 1, minWidth: 0 }}
          />
          <Button onClick={() => test(chosen.ringing, ringtone)}>Play</Button>
        </Flex>
      </Form.Item>
      {saveRingtone.isError && (
        <Alert type="error" showIcon style={{ marginTop: 12 }} message={failureText(saveRingtone.error)} />
      )}
      {testError && <Alert type="error" showIcon style={{ marginTop: 12 }} message={testError} />}
    </Form>
  );
}
