import { Alert } from 'antd';
import { useEffect } from 'react';
import { onCallRequest, takeCallRequest } from '@/lib/phone-requests.ts';
import { usePhoneStore } from '../stores/phone-store.ts';
import { CallBar, CallScreen, IncomingCalls } from './call-views.tsx';
import { Dialer } from './dialer.tsx';
import './phone.css';

/**
 * Everything the phone draws, fetched the first time it is needed: the dialer, calls ringing, the call under
 * way and its full-screen view. Also places the calls asked for elsewhere ("Call" in a conversation).
 */
export default function PhoneDock({ open, onClose }: { open: boolean; onClose: () => void }) {
  const error = usePhoneStore((s) => s.error);
  const status = usePhoneStore((s) => s.status);
  useEffect(() => {
    const place = () => {
      const request = takeCallRequest();
      if (request) void usePhoneStore.getState().dial(request.number, request.enquiryId);
    };
    place();
    return onCallRequest(place);
  }, []);
  return (
    <>
      <Dialer open={open} onClose={onClose} />
      <IncomingCalls />
      <CallBar />
      {error && !open && (status === null || status === 'incoming') && (
        // A call asked for from a conversation that could not start: said where the person is looking.
        <Alert
          className="phone-error"
          type="error"
          showIcon
          role="alert"
          message={error}
          closable
          onClose={() => usePhoneStore.setState({ error: null })}
        />
      )}
      <CallScreen />
    </>
  );
}
