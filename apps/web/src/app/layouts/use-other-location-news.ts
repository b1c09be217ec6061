import {
  clipText,
  customerCalled,
  type EnquiryRow,
  type MessageDto,
  UNKNOWN_LOCATION,
} from '@switchboard/shared';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { notify } from '@/lib/notifier.ts';
import { useSocket } from '@/lib/use-socket.ts';
import { paths } from '../paths.ts';

type Place = { id: string; name: string | null };

// The enquiries heard of lately and where they are: a message's event names its enquiry, not its location.
const REMEMBERED = 500;

/**
 * A customer writing at another of the person's locations is told on whatever page they are (the inbox shows
 * only the selected location, unless it shows all of them), with a way into the conversation. Their screen
 * is in every room of their locations, so the enquiry's event comes just before its message's.
 */
export function useOtherLocationNews(selectedId: string | null, places: readonly Place[]): void {
  const { socket } = useSocket();
  const { pathname, search } = useLocation();
  const watching = useRef({ selectedId, places, all: false });
  watching.current = {
    selectedId,
    places,
    all: pathname.startsWith(paths.inbox) && new URLSearchParams(search).get('location') === 'all',
  };

  useEffect(() => {
    if (!socket) return;
    const where = new Map<string, EnquiryRow>();
    const remember = (enquiry: EnquiryRow) => {
      where.delete(enquiry.id);
      where.set(enquiry.id, enquiry);
      if (where.size > REMEMBERED) where.delete(where.keys().next().value as string);
    };
    const onMessage = (message: MessageDto) => {
      const enquiry = where.get(message.enquiry_id);
      const { selectedId: here, places: theirs, all } = watching.current;
      if (message.direction !== 'in' || !enquiry || !here || all || enquiry.location_id === here) return;
      const place = theirs.find((p) => p.id === enquiry.location_id);
      if (!place) return;
      const at = place.name ?? UNKNOWN_LOCATION;
      const text =
        message.message.trim() || (message.attachments.length ? 'Sent an attachment' : 'New message');
      notify.attention({
        title: `New message at ${at}`,
        body: `${customerCalled(enquiry.customer, 'A customer')}: “${clipText(text, 120, '…')}”`,
        href: `${paths.inbox}/${encodeURIComponent(enquiry.id)}?location=all`,
        action: 'Open it',
      });
    };
    socket.on('enquiry.created', remember);
    socket.on('enquiry.updated', remember);
    socket.on('message.created', onMessage);
    return () => {
      socket.off('enquiry.created', remember);
      socket.off('enquiry.updated', remember);
      socket.off('message.created', onMessage);
    };
  }, [socket]);
}
