import { PhoneFilled } from '@ant-design/icons';
import type { TrackingNumberDto } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Input, Select, Tag, Typography } from 'antd';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Panel } from '@/components/panel.tsx';
import { api, type Envelope } from '@/lib/api-client.ts';
import { useSocket } from '@/lib/use-socket.ts';
import { CustomerLine, type LineState } from '../lib/customer-line.ts';

const IDLE: LineState = { kind: 'idle' };
const HANG_UP = { background: '#cf1322', borderColor: '#cf1322', color: '#fff' } as const;
const ANSWER = { background: '#389e0d', borderColor: '#389e0d', color: '#fff' } as const;

function Clock({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <span role="timer">{`${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`}</span>
  );
}

/**
 * The customer's phone: ring the location (its available staff ring; nobody free → voicemail), or answer a
 * call a staff member places from the inbox. Audio is live both ways and the call is recorded.
 */
export function SandboxPhonePanel({
  locationId,
  locationName,
  defaultFrom,
}: {
  locationId: string | undefined;
  locationName: string;
  defaultFrom: string;
}) {
  const { socket } = useSocket();
  const [line, setLine] = useState<CustomerLine | null>(null);
  const [from, setFrom] = useState('');
  useEffect(() => {
    if (!socket) return;
    const made = new CustomerLine(socket);
    setLine(made);
    (window as { sandboxLine?: CustomerLine }).sandboxLine = made;
    return () => made.destroy();
  }, [socket]);
  const state = useSyncExternalStore(line?.subscribe ?? (() => () => {}), line?.snapshot ?? (() => IDLE));
  const number = from.trim() || defaultFrom.trim();
  // The customer can dial one of the location's campaign numbers instead of its own.
  const [dialled, setDialled] = useState('');
  const tracking = useQuery({
    queryKey: ['locations', locationId ?? '', 'tracking-numbers'],
    enabled: Boolean(locationId),
    queryFn: async ({ signal }) =>
      (
        await api.get<Envelope<{ items: TrackingNumberDto[] }>>(
          `/business/locations/${encodeURIComponent(locationId ?? '')}/tracking-numbers`,
          { signal, silent: true },
        )
      ).data.body.items,
  });

  return (
    <Panel title="Phone call" style={{ flex: '1 1 300px', maxWidth: 420 }}>
      <Flex vertical gap={12} aria-label="Phone line" role="region">
        {(state.kind === 'idle' || state.kind === 'ended') && (
          <>
            {state.kind === 'ended' && (
              <Typography.Text type="secondary" role="status">
                {state.message}
              </Typography.Text>
            )}
            <label htmlFor="sandbox-call-from">
              <Typography.Text>Calling from</Typography.Text>
            </label>
            <Input
              id="sandbox-call-from"
              inputMode="tel"
              placeholder={defaultFrom || '+61 412 345 678'}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              autoComplete="off"
            />
            {(tracking.data ?? []).length > 0 && (
              <>
                <label htmlFor="sandbox-call-to">
                  <Typography.Text>Number dialled</Typography.Text>
                </label>
                <Select
                  id="sandbox-call-to"
                  value={dialled}
                  onChange={setDialled}
                  options={[
                    { value: '', label: 'The location’s own number' },
                    ...(tracking.data ?? []).map((t) => ({
                      value: t.number,
                      label: `${t.number} (${[t.source, t.campaign].filter(Boolean).join(', ')})`,
                    })),
                  ]}
                />
              </>
            )}
            <Button
              icon={<PhoneFilled />}
              disabled={!locationId || !number || !line}
              onClick={() => locationId && void line?.call(locationId, number, dialled || undefined)}
              style={locationId && number ? ANSWER : undefined}
            >
              Call {locationName}
            </Button>
            <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 12 }}>
              Staff who are available for calls (the phone in the top bar) ring at once; with nobody free, you
              can leave a voicemail. Calls from the inbox to a customer ring here while this page is open.
            </Typography.Paragraph>
          </>
        )}
        {state.kind === 'calling' && (
          <>
            <Typography.Text>Ringing {locationName}…</Typography.Text>
            <Button onClick={() => void line?.hangUp()} style={HANG_UP}>
              Hang up
            </Button>
          </>
        )}
        {state.kind === 'incoming' && (
          <>
            <Typography.Text strong>
              {state.ring.caller_name ?? state.ring.from} is calling you
            </Typography.Text>
            <Typography.Text type="secondary">
              From {state.ring.from} to {state.ring.to}
            </Typography.Text>
            <Flex gap={8}>
              <Button onClick={() => line?.decline()} style={HANG_UP}>
                Decline
              </Button>
              <Button icon={<PhoneFilled />} onClick={() => void line?.answer()} style={ANSWER}>
                Answer
              </Button>
            </Flex>
          </>
        )}
        {state.kind === 'talking' && (
          <>
            <Flex gap={8} align="center">
              <Typography.Text strong>On the call</Typography.Text>
              <Clock since={state.since} />
              {state.held && <Tag color="orange">On hold</Tag>}
            </Flex>
            {state.digits && (
              <Typography.Text>
                Keys pressed: <output>{state.digits}</output>
              </Typography.Text>
            )}
            <Button onClick={() => void line?.hangUp()} style={HANG_UP}>
              Hang up
            </Button>
          </>
        )}
        {state.kind === 'transferring' && (
          <>
            <Typography.Text>You are being transferred…</Typography.Text>
            <Button onClick={() => void line?.hangUp()} style={HANG_UP}>
              Hang up
            </Button>
          </>
        )}
        {state.kind === 'voicemail' && (
          <>
            <Alert type="info" showIcon message="Nobody answered" description={state.greeting} />
            <Typography.Text>Recording your message…</Typography.Text>
            <Button type="primary" onClick={() => void line?.hangUp()}>
              Finish message
            </Button>
          </>
        )}
      </Flex>
    </Panel>
  );
}
