import { ClockCircleOutlined, ExclamationCircleFilled } from '@ant-design/icons';
import type { MessageStatus as Status } from '@switchboard/shared';

const LABELS: Record<Status, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  received: 'Received',
};

function Check({ double }: { double: boolean }) {
  return (
    <svg width={double ? 18 : 13} height="12" viewBox={double ? '0 0 18 12' : '0 0 13 12'} aria-hidden="true">
      <path
        d="M1.5 6.5l3.2 3.2L11.5 2.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {double && (
        <path
          d="M8.2 9.2l.5.5L15.5 2.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      )}
    </svg>
  );
}

/** The tick under a sent message: queued clock, sent ✓, delivered ✓✓, read ✓✓ in blue, failed in red. */
export function MessageStatusTick({ status }: { status: Status }) {
  if (status === 'received') return null;
  const icon =
    status === 'queued' ? (
      <ClockCircleOutlined style={{ fontSize: 11 }} />
    ) : status === 'failed' ? (
      <ExclamationCircleFilled style={{ fontSize: 12 }} />
    ) : (
      <Check double={status !== 'sent'} />
    );
  return (
    <span
      className="ib-tick"
      data-status={status}
      role="img"
      aria-label={LABELS[status]}
      title={LABELS[status]}
    >
      {icon}
    </span>
  );
}
