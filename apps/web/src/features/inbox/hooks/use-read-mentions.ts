import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getMentionsQueryOptions } from '../api/get-mentions.ts';
import { useMarkMentionsRead } from '../api/mark-mentions-read.ts';

/**
 * Opening a conversation where the person was mentioned (from the toast, a link or the list) reads those
 * mentions, as opening them from Mentions does.
 */
export function useReadMentions(enquiryId: string, userId: string, visible: boolean): void {
  const mentions = useQuery(getMentionsQueryOptions());
  const { mutate } = useMarkMentionsRead(userId);
  const unreadHere = Boolean(mentions.data?.items.some((m) => !m.read && m.enquiry.id === enquiryId));
  useEffect(() => {
    if (visible && unreadHere) mutate(enquiryId);
  }, [visible, unreadHere, enquiryId, mutate]);
}
