import { DownOutlined, HistoryOutlined, LoadingOutlined, RightOutlined } from '@ant-design/icons';
import type { CustomerEnquiry } from '@switchboard/shared';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useCustomer } from '../api/get-customer.ts';
import { useMessages } from '../api/get-messages.ts';
import type { EnquiryRow } from '../types.ts';
import { formatDayLabel } from '../utils/format.ts';
import { flattenMessages } from '../utils/message-cache.ts';
import { ChannelMark, channelName } from './channel.tsx';
import { MessageItem } from './message-item.tsx';

/**
 * Above the start of a conversation: the customer's other, earlier conversations on any channel or location,
 * collapsed; each one's messages load when it is opened here, and a link opens it in full.
 */
export function EarlierConversations({ enquiry, userId }: { enquiry: EnquiryRow; userId: string }) {
  const customer = useCustomer(enquiry.customer_id);
  const [open, setOpen] = useState(false);
  const earlier = useMemo(() => {
    const all = customer.data?.enquiries ?? [];
    const self = all.find((e) => e.id === enquiry.id);
    return all.filter((e) => e.id !== enquiry.id && (!self || e.created_at < self.created_at));
  }, [customer.data, enquiry.id]);
  if (!earlier.length) return null;

  return (
    <section className="ib-earlier" aria-label="Earlier conversations">
      <Button
        type="link"
        size="small"
        icon={<HistoryOutlined />}
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? 'Hide' : 'Show'}{' '}
        {earlier.length === 1 ? 'an earlier conversation' : `${earlier.length} earlier conversations`}
      </Button>
      {open && (
        <ol className="ib-earlier-list">
          {earlier.map((e) => (
            <EarlierConversation
              key={e.id}
              enquiry={e}
              customerName={enquiry.customer.name}
              customerId={enquiry.customer_id}
              userId={userId}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function EarlierConversation({
  enquiry,
  customerName,
  customerId,
  userId,
}: {
  enquiry: CustomerEnquiry;
  customerName: string | null;
  customerId: string;
  userId: string;
}) {
  const [open, setOpen] = useState(false);
  const place = enquiry.location_name ?? 'Unknown Location';
  return (
    <li className="ib-earlier-item">
      <div className="ib-earlier-head">
        <Button
          type="text"
          size="small"
          icon={open ? <DownOutlined /> : <RightOutlined />}
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the ${channelName(enquiry.channel)} conversation of ${formatDayLabel(enquiry.created_at)}`}
          onClick={() => setOpen((v) => !v)}
        />
        <ChannelMark channel={enquiry.channel} />
        <span className="ib-earlier-title">
          {channelName(enquiry.channel)} · {formatDayLabel(enquiry.created_at)} · {place}
          {enquiry.status === 'closed' ? ' · closed' : ' · open'}
        </span>
        <Link to={`/inbox/${encodeURIComponent(enquiry.id)}`} className="ib-earlier-open">
          Open
        </Link>
      </div>
      {!open && enquiry.last_message && <p className="ib-earlier-preview">{enquiry.last_message}</p>}
      {open && (
        <EarlierMessages
          enquiryId={enquiry.id}
          customerName={customerName}
          customerId={customerId}
          userId={userId}
        />
      )}
    </li>
  );
}

function EarlierMessages({
  enquiryId,
  customerName,
  customerId,
  userId,
}: {
  enquiryId: string;
  customerName: string | null;
  customerId: string;
  userId: string;
}) {
  const thread = useMessages(enquiryId);
  const messages = useMemo(() => flattenMessages(thread.data), [thread.data]);
  if (thread.isPending)
    return (
      <p className="ib-earlier-preview" role="status">
        <LoadingOutlined /> Loading messages…
      </p>
    );
  if (thread.isError)
    return (
      <p className="ib-earlier-preview" role="alert">
        These messages could not be loaded.{' '}
        <Button type="link" size="small" onClick={() => thread.refetch()}>
          Try again
        </Button>
      </p>
    );
  return (
    <>
      {thread.hasNextPage && (
        <Button
          type="link"
          size="small"
          loading={thread.isFetchingNextPage}
          onClick={() => void thread.fetchNextPage()}
        >
          Show earlier messages
        </Button>
      )}
      <ol aria-label="Earlier messages" className="ib-earlier-messages">
        {messages.map((m) => (
          <MessageItem
            key={m.id}
            message={m}
            customerName={customerName}
            customerSeed={customerId}
            lastOfRun
            userId={userId}
            onImageLoad={() => {}}
          />
        ))}
      </ol>
    </>
  );
}
