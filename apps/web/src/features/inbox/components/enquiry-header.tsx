import {
  ArrowLeftOutlined,
  CheckCircleOutlined,
  RedoOutlined,
  UserAddOutlined,
  UserDeleteOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { Link } from 'react-router';
import { useUpdateEnquiry } from '../api/update-enquiry.ts';
import type { EnquiryRow } from '../types.ts';
import { customerLabel } from '../utils/format.ts';
import { ChannelMark, channelName } from './channel.tsx';
import { PersonAvatar } from './person-avatar.tsx';

/**
 * Who the conversation is with and on which channel, its status and owner, and the actions on it: assign
 * to me or unassign (there is no list of teammates to assign to yet), close or reopen.
 */
export function EnquiryHeader({
  enquiry,
  userId,
  backTo,
}: {
  enquiry: EnquiryRow;
  userId: string;
  backTo: string;
}) {
  const update = useUpdateEnquiry(userId);
  const name = customerLabel(enquiry.customer);
  const mine = enquiry.assigned_to === userId;
  const open = enquiry.status === 'open';
  const contact = [enquiry.customer.phone, enquiry.customer.email].filter(
    (c): c is string => Boolean(c) && c !== name,
  );
  const pending = update.isPending ? update.variables?.patch : undefined;

  return (
    <header className="ib-view-head">
      <Link to={backTo} className="ib-back" aria-label="Back to the list">
        <ArrowLeftOutlined />
      </Link>
      <PersonAvatar name={enquiry.customer.name} seed={enquiry.customer_id} size={40} />
      <div className="ib-view-who">
        <h2 title={name}>{name}</h2>
        <div className="ib-view-sub">
          <span>
            <ChannelMark channel={enquiry.channel} size={15} />
            {channelName(enquiry.channel)}
          </span>
          {contact.map((c) => (
            <span key={c}>{c}</span>
          ))}
          <span>
            <UserOutlined aria-hidden="true" />
            {mine ? 'Assigned to you' : enquiry.assigned_to ? 'Assigned' : 'Unassigned'}
          </span>
          <span className="ib-status-pill" data-status={enquiry.status}>
            {open ? 'Open' : 'Closed'}
          </span>
        </div>
        {enquiry.title && enquiry.channel === 'email' && (
          <div className="ib-view-sub" style={{ marginTop: 2 }}>
            <span style={{ color: 'var(--ib-text)' }}>{enquiry.title}</span>
          </div>
        )}
      </div>
      <div className="ib-view-actions">
        {mine ? (
          <Tooltip title="Put it back for anyone to take">
            <Button
              icon={<UserDeleteOutlined />}
              loading={pending?.assigned_to === null}
              onClick={() => update.mutate({ enquiry, patch: { assigned_to: null } })}
            >
              Unassign
            </Button>
          </Tooltip>
        ) : (
          <Button
            icon={<UserAddOutlined />}
            loading={typeof pending?.assigned_to === 'string'}
            onClick={() => update.mutate({ enquiry, patch: { assigned_to: userId } })}
          >
            Assign to me
          </Button>
        )}
        {open ? (
          <Button
            type="primary"
            icon={<CheckCircleOutlined />}
            loading={pending?.status === 'closed'}
            onClick={() => update.mutate({ enquiry, patch: { status: 'closed' } })}
          >
            Close
          </Button>
        ) : (
          <Button
            icon={<RedoOutlined />}
            loading={pending?.status === 'open'}
            onClick={() => update.mutate({ enquiry, patch: { status: 'open' } })}
          >
            Reopen
          </Button>
        )}
      </div>
    </header>
  );
}
