import {
  ArrowLeftOutlined,
  CheckCircleOutlined,
  ClockCircleOutlined,
  DownOutlined,
  EyeInvisibleOutlined,
  IdcardOutlined,
  PhoneOutlined,
  RedoOutlined,
  UserAddOutlined,
  UserDeleteOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, type MenuProps, Space, Tooltip } from 'antd';
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { useLabels } from '@/lib/labels.ts';
import { requestCall } from '@/lib/phone-requests.ts';
import { phoneText } from '@/lib/phones.ts';
import { setNeedsPerson } from '../api/assistant.ts';
import { memberName, useMembers } from '../api/get-members.ts';
import { useMarkEnquiryUnread } from '../api/mark-enquiry-seen.ts';
import { useUpdateEnquiry } from '../api/update-enquiry.ts';
import { useNarrowerThan } from '../hooks/use-narrower-than.ts';
import { useShortcuts } from '../hooks/use-shortcut.ts';
import type { EnquiryRow } from '../types.ts';
import { customerLabel } from '../utils/format.ts';
import { writeEnquiry } from '../utils/query-cache.ts';
import { ChannelMark, channelName } from './channel.tsx';
import { CloseNextButton } from './close-next-button.tsx';
import { HeaderActions } from './header-actions.tsx';
import { LabelPicker } from './label-picker.tsx';
import { LabelTags } from './label-tags.tsx';
import { PersonAvatar } from './person-avatar.tsx';
import { formatWake, SnoozeButton, snoozedUntil } from './snooze-button.tsx';

/** Narrower than this (a phone), the header is one line: the name, and the actions behind one button. */
const COMPACT_BELOW_PX = 600;

/**
 * Who the conversation is with and on which channel, its status and who has it, and the actions on it:
 * assign to me, to a teammate or to nobody, close or reopen.
 */
export function EnquiryHeader({
  enquiry,
  userId,
  backTo,
  customerPanel,
  canManageLabels = false,
}: {
  enquiry: EnquiryRow;
  userId: string;
  backTo: string;
  /** The customer panel's toggle, when the page offers one. */
  customerPanel?: { open: boolean; toggle: () => void };
  /** Owners are offered a way to manage the labels. */
  canManageLabels?: boolean;
}) {
  const update = useUpdateEnquiry(userId);
  const name = customerLabel(enquiry.customer, enquiry.channel);
  const mine = enquiry.assigned_to === userId;
  const open = enquiry.status === 'open';
  const contact = [phoneText(enquiry.customer.phone), enquiry.customer.email].filter(
    (c): c is string => Boolean(c) && c !== name,
  );
  const phoneNumber = enquiry.customer.phone;
  const pending = update.isPending ? update.variables?.patch : undefined;
  const asleep = snoozedUntil(enquiry);
  const markUnread = useMarkEnquiryUnread();
  // r replies, a assigns to me, e closes (the "?" overlay lists them).
  useShortcuts({
    r: () => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.focus(),
    a: () => {
      if (enquiry.assigned_to !== userId) update.mutate({ enquiry, patch: { assigned_to: userId } });
    },
    e: () => {
      if (enquiry.status === 'open') update.mutate({ enquiry, patch: { status: 'closed' } });
    },
  });
  const labels = useLabels();
  const navigate = useNavigate();
  const members = useMembers();
  const assignee = enquiry.assigned_to && !mine ? memberName(members.data, enquiry.assigned_to) : undefined;

  const assignItems: MenuProps['items'] = [
    {
      key: 'to',
      type: 'group',
      label: 'Assign to',
      children: (members.data ?? [])
        .filter((m) => m.user_id !== enquiry.assigned_to)
        .map((m) => ({
          key: m.user_id,
          label: m.user_id === userId ? `${m.full_name || m.email} (you)` : m.full_name || m.email,
        })),
    },
    ...(enquiry.assigned_to ? [{ type: 'divider' as const }, { key: 'nobody', label: 'Unassign' }] : []),
  ];
  const assign: MenuProps['onClick'] = ({ key }) =>
    update.mutate({ enquiry, patch: { assigned_to: key === 'nobody' ? null : key } });
  const head = useRef<HTMLElement>(null);
  const compact = useNarrowerThan(head, COMPACT_BELOW_PX);

  return (
    <header ref={head} className="ib-view-head" data-compact={compact}>
      <Link to={backTo} className="ib-back" aria-label="Back to the list">
        <ArrowLeftOutlined />
      </Link>
      <PersonAvatar name={enquiry.customer.name} seed={enquiry.customer_id} size={40} />
      <div className="ib-view-who">
        <h2 title={name}>{name}</h2>
        <div className="ib-view-sub">
          <span
            title={
              enquiry.channel === 'widget'
                ? 'Began in the website chat; continues by SMS once the visitor leaves it'
                : undefined
            }
          >
            <ChannelMark channel={enquiry.channel} size={15} />
            {channelName(enquiry.channel)}
          </span>
          {contact.map((c) => (
            <span key={c}>{c}</span>
          ))}
          <span>
            <UserOutlined aria-hidden="true" />
            {mine
              ? 'Assigned to you'
              : enquiry.assigned_to
                ? `Assigned to ${assignee ?? 'a teammate'}`
                : 'Unassigned'}
          </span>
          <span className="ib-status-pill" data-status={enquiry.status}>
            {open ? 'Open' : 'Closed'}
          </span>
          <LabelTags ids={enquiry.labels} labels={labels.data} />
          {enquiry.needs_person && <NeedsPerson enquiry={enquiry} userId={userId} />}
          {asleep && (
            <span className="ib-snoozed" role="status">
              <ClockCircleOutlined aria-hidden="true" /> Snoozed until {formatWake(asleep)}
            </span>
          )}
        </div>
        {enquiry.title && enquiry.channel === 'email' && (
          <div className="ib-view-sub" style={{ marginTop: 2 }}>
            <span style={{ color: 'var(--ib-text)' }}>{enquiry.title}</span>
          </div>
        )}
      </div>
      <HeaderActions compact={compact}>
        {phoneNumber && (
          <Tooltip title={`Call ${phoneText(phoneNumber)}`}>
            <Button
              icon={<PhoneOutlined />}
              aria-label={`Call ${name}`}
              onClick={() =>
                requestCall({
                  number: phoneNumber,
                  enquiryId: enquiry.id,
                  name: enquiry.customer.name,
                })
              }
            />
          </Tooltip>
        )}
        {customerPanel && (
          <Tooltip title={customerPanel.open ? 'Hide the customer' : 'Show the customer'}>
            <Button
              icon={<IdcardOutlined />}
              aria-label="Customer details"
              aria-pressed={customerPanel.open}
              type={customerPanel.open ? 'default' : 'text'}
              onClick={customerPanel.toggle}
            />
          </Tooltip>
        )}
        <Space.Compact>
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
          <Dropdown trigger={['click']} menu={{ items: assignItems, onClick: assign }}>
            <Button icon={<DownOutlined />} aria-label="Assign to a teammate" />
          </Dropdown>
        </Space.Compact>
        <Tooltip title="Mark as unread and go back to the list">
          <Button
            icon={<EyeInvisibleOutlined />}
            aria-label="Mark as unread"
            onClick={() => markUnread.mutate(enquiry.id, { onSuccess: () => navigate(backTo) })}
          />
        </Tooltip>
        <LabelPicker
          enquiry={enquiry}
          saving={pending?.labels}
          canManage={canManageLabels}
          onChange={(labels) => update.mutate({ enquiry, patch: { labels } })}
        />
        <SnoozeButton
          enquiry={enquiry}
          busy={pending?.snoozed_until !== undefined}
          onSnooze={(until) => update.mutate({ enquiry, patch: { snoozed_until: until } })}
        />
        {open && <CloseNextButton enquiry={enquiry} userId={userId} backTo={backTo} />}
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
      </HeaderActions>
    </header>
  );
}

/**
 * The assistant handed this conversation over and stays silent in it: staff hand it back once they are done
 * (the assistant answers the customer's next message again).
 */
function NeedsPerson({ enquiry, userId }: { enquiry: EnquiryRow; userId: string }) {
  const queryClient = useQueryClient();
  const handBack = useMutation({
    mutationFn: () => setNeedsPerson(enquiry.id, false),
    onSuccess: () => writeEnquiry(queryClient, { ...enquiry, needs_person: false }, userId),
  });
  return (
    <span className="ib-needs-person" role="status">
      Needs a person
      <Tooltip title="The assistant answers this customer again from their next message">
        <Button type="link" size="small" loading={handBack.isPending} onClick={() => handBack.mutate()}>
          Hand back to assistant
        </Button>
      </Tooltip>
    </span>
  );
}
