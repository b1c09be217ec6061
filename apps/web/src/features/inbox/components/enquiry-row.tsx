import { ClockCircleOutlined } from '@ant-design/icons';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { useLabels } from '@/lib/labels.ts';
import type { EnquiryRow as Row } from '../types.ts';
import { customerLabel, formatFullTime, formatListTime } from '../utils/format.ts';
import { ChannelMark, channelName } from './channel.tsx';
import { LabelTags } from './label-tags.tsx';
import { PersonAvatar } from './person-avatar.tsx';
import { RowAssignee } from './row-assignee.tsx';

type Props = {
  row: Row;
  to: string;
  selected: boolean;
  userId: string;
  now: Date;
  style: CSSProperties;
  index: number;
  measure: (el: HTMLElement | null) => void;
  /** While selecting several: whether this one is ticked, and how to tick it. */
  pick?: { checked: boolean; toggle: () => void };
  /** Shown when the list holds every location. */
  locationName?: string;
};

/** One conversation in the list: who, on which channel, the last thing said, when, and whether it is read. */
export function EnquiryRow({
  row,
  to,
  selected,
  userId,
  now,
  style,
  index,
  measure,
  pick,
  locationName,
}: Props) {
  const name = customerLabel(row.customer, row.channel);
  const unread = !row.seen;
  return (
    <li ref={measure} data-index={index} className="ib-item" data-picking={Boolean(pick)} style={style}>
      {pick && (
        <input
          type="checkbox"
          className="ib-pick"
          checked={pick.checked}
          onChange={pick.toggle}
          aria-label={`Select ${name}`}
        />
      )}
      <Link to={to} className="ib-row" data-unread={unread} aria-current={selected ? 'page' : undefined}>
        <PersonAvatar name={row.customer.name} seed={row.customer_id} />
        <span className="ib-row-main">
          <span className="ib-row-line">
            <span className="ib-row-name">{name}</span>
            <time
              className="ib-row-time"
              dateTime={row.last_message_at}
              title={formatFullTime(row.last_message_at)}
            >
              {formatListTime(row.last_message_at, now)}
            </time>
          </span>
          <span className="ib-row-line">
            <span className="ib-row-preview">
              {row.last_message?.trim() || row.title || 'No messages yet'}
            </span>
            {unread && (
              <>
                <span className="ib-unread-dot" aria-hidden="true" />
                <span className="sr-only">Unread</span>
              </>
            )}
          </span>
          <span className="ib-row-meta">
            <span className="ib-row-channel">
              <ChannelMark channel={row.channel} size={14} />
              {channelName(row.channel)}
            </span>
            {row.assigned_to && (
              <>
                <span className="ib-row-sep" aria-hidden="true">
                  ·
                </span>
                <RowAssignee assignedTo={row.assigned_to} userId={userId} />
              </>
            )}
            {locationName && (
              <>
                <span className="ib-row-sep" aria-hidden="true">
                  ·
                </span>
                <span className="ib-row-location">{locationName}</span>
              </>
            )}
            {row.needs_person && (
              <span className="ib-needs-person" title="The assistant handed this conversation to the team">
                Needs a person
              </span>
            )}
            {row.labels.length > 0 && <RowLabels ids={row.labels} />}
            {row.snoozed_until && Date.parse(row.snoozed_until) > now.getTime() && (
              <>
                <span className="ib-row-sep" aria-hidden="true">
                  ·
                </span>
                <span className="ib-assignee">
                  <ClockCircleOutlined aria-hidden="true" />
                  until{' '}
                  {new Date(row.snoozed_until).toLocaleString(undefined, {
                    weekday: 'short',
                    hour: 'numeric',
                    minute: '2-digit',
                  })}
                </span>
              </>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The row's labels, from the business's list (cached once for every row). */
function RowLabels({ ids }: { ids: string[] }) {
  const labels = useLabels();
  return <LabelTags ids={ids} labels={labels.data} />;
}
