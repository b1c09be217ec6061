import { StepForwardOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import { inboxKeys } from '../api/query-keys.ts';
import { useUpdateEnquiry } from '../api/update-enquiry.ts';
import type { EnquiryPage, EnquiryRow, Paged } from '../types.ts';
import { hrefBeside, nextInList } from '../utils/next-enquiry.ts';

/**
 * Closes the enquiry and opens the next one of the list being worked through (or goes back to the list when
 * it was the last), so a run of done conversations takes one tap each. Icon-only, to fit a phone's header; its
 * name ("Done, go to next") leaves "Close" to the Close button alone.
 */
export function CloseNextButton({
  enquiry,
  userId,
  backTo,
}: {
  enquiry: EnquiryRow;
  userId: string;
  backTo: string;
}) {
  const queryClient = useQueryClient();
  const update = useUpdateEnquiry(userId);
  const navigate = useNavigate();
  const closeAndNext = () => {
    // Read before closing: closing takes the row out of the Open list.
    const lists = queryClient
      .getQueryCache()
      .findAll({ queryKey: inboxKeys.lists() })
      .map((q) => ({
        data: q.state.data as Paged<EnquiryPage> | undefined,
        onScreen: q.getObserversCount() > 0,
      }));
    const next = nextInList(lists, enquiry.id);
    update.mutate({ enquiry, patch: { status: 'closed' } });
    navigate(next ? hrefBeside(backTo, next.id) : backTo);
  };
  return (
    <Tooltip title="Close this enquiry and go to the next one">
      <Button icon={<StepForwardOutlined />} aria-label="Done, go to next" onClick={closeAndNext} />
    </Tooltip>
  );
}
