import type { Viewer } from '@switchboard/shared';
import { useEffect, useState } from 'react';
import { useSocket } from '@/lib/use-socket.ts';

type Typist = Viewer & { until: number };

// A typing:false can be lost with a dropped connection; a typist nobody has heard from for this long stops.
const TYPING_TIMEOUT_MS = 6000;

/**
 * Joins the enquiry's room while it is open (again after every reconnect, since rooms do not survive one)
 * and says who else is here: the collision warning's viewers and typists, without the person themselves.
 */
export function useEnquiryPresence(enquiryId: string, userId: string) {
  const { socket, status } = useSocket();
  const [viewers, setViewers] = useState<Viewer[]>([]);
  const [typists, setTypists] = useState<Typist[]>([]);

  useEffect(() => {
    if (!socket) return;
    const open = () => socket.emit('enquiry.open', enquiryId);
    const onViewing = (event: { enquiry_id: string; viewers: Viewer[] }) => {
      if (event.enquiry_id !== enquiryId) return;
      setViewers(event.viewers.filter((v) => v.user_id !== userId));
    };
    const onTyping = (event: { enquiry_id: string; user_id: string; full_name: string; typing: boolean }) => {
      if (event.enquiry_id !== enquiryId || event.user_id === userId) return;
      setTypists((current) => {
        const others = current.filter((t) => t.user_id !== event.user_id);
        if (!event.typing) return others;
        return [
          ...others,
          { user_id: event.user_id, full_name: event.full_name, until: Date.now() + TYPING_TIMEOUT_MS },
        ];
      });
    };
    const onDisconnect = () => {
      setViewers([]);
      setTypists([]);
    };
    socket.on('viewing', onViewing);
    socket.on('typing', onTyping);
    socket.on('connect', open);
    socket.on('disconnect', onDisconnect);
    if (socket.connected) open();
    return () => {
      socket.off('viewing', onViewing);
      socket.off('typing', onTyping);
      socket.off('connect', open);
      socket.off('disconnect', onDisconnect);
      if (socket.connected) socket.emit('enquiry.close', enquiryId);
      setViewers([]);
      setTypists([]);
    };
  }, [socket, enquiryId, userId]);

  useEffect(() => {
    if (typists.length === 0) return;
    const next = Math.min(...typists.map((t) => t.until));
    const timer = setTimeout(
      () => setTypists((current) => current.filter((t) => t.until > Date.now())),
      Math.max(0, next - Date.now()) + 50,
    );
    return () => clearTimeout(timer);
  }, [typists]);

  return { viewers, typists, live: status === 'live' };
}
