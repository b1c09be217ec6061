import { PhoneOutlined } from '@ant-design/icons';
import type { CallRingtone } from '@switchboard/shared';
import { Badge, Button, Tooltip } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { onCallRequest } from '@/lib/phone-requests.ts';
import { usePhoneStore, wasAvailableAt } from '../stores/phone-store.ts';

const PhoneDock = lazy(() => import('./phone-dock.tsx'));

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The phone in the top bar, on every page: opens the dialer (or press C). The phone's code is fetched the
 * first time it is used, or at once when this browser was left available at this location.
 */
export function PhoneButton({
  locationId,
  ringtone,
  userId,
}: {
  locationId: string | null;
  ringtone: CallRingtone;
  userId: string;
}) {
  const available = usePhoneStore((s) => s.available);
  const ringing = usePhoneStore((s) => s.queue.length);
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => usePhoneStore.setState({ selfId: userId }), [userId]);
  useEffect(() => usePhoneStore.setState({ ringtone }), [ringtone]);
  useEffect(() => {
    usePhoneStore.getState().setLocation(locationId);
    if (locationId && wasAvailableAt(locationId)) {
      setLoaded(true);
      void usePhoneStore.getState().goAvailable();
    }
  }, [locationId]);

  useEffect(() => onCallRequest(() => setLoaded(true)), []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'c' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      e.preventDefault();
      setLoaded(true);
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <Tooltip title={available ? 'Phone: available for calls (C)' : 'Phone (C)'}>
        <Badge dot={available || ringing > 0} color={ringing > 0 ? 'red' : 'green'} offset={[-6, 6]}>
          <Button
            type="text"
            aria-label={available ? 'Phone (available)' : 'Phone'}
            icon={<PhoneOutlined />}
            onClick={() => {
              setLoaded(true);
              setOpen((o) => !o);
            }}
          />
        </Badge>
      </Tooltip>
      {loaded && (
        <Suspense fallback={null}>
          <PhoneDock open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
