import { useCallback, useEffect, useRef } from 'react';
import { getSocketState } from '@/lib/socket.ts';

const REPEAT_MS = 3000;
const PAUSE_MS = 2500;

/**
 * Tells the others in the enquiry's room that this person is typing: at most once every few seconds while
 * keys are pressed, and "stopped" after a pause, on send and when the enquiry closes.
 */
export function useTypingSignal(enquiryId: string) {
  const lastSent = useRef(0);
  const typing = useRef(false);
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const emit = useCallback(
    (value: boolean) => {
      const socket = getSocketState().socket;
      if (socket?.connected) socket.emit('typing', { enquiry_id: enquiryId, typing: value });
    },
    [enquiryId],
  );

  const stop = useCallback(() => {
    clearTimeout(pause.current);
    if (!typing.current) return;
    typing.current = false;
    lastSent.current = 0;
    emit(false);
  }, [emit]);

  const keystroke = useCallback(() => {
    const now = Date.now();
    if (!typing.current || now - lastSent.current > REPEAT_MS) {
      typing.current = true;
      lastSent.current = now;
      emit(true);
    }
    clearTimeout(pause.current);
    pause.current = setTimeout(stop, PAUSE_MS);
  }, [emit, stop]);

  useEffect(() => stop, [stop]);

  return { keystroke, stop };
}
