import type { EnquiryStatus } from '@switchboard/shared';

const LABELS: Record<EnquiryStatus, string> = { open: 'Open', closed: 'Closed' };

/** Open and Closed, with the location's counters beside each. */
export function StatusTabs({
  value,
  counts,
  onChange,
}: {
  value: EnquiryStatus;
  counts: Record<EnquiryStatus, number> | undefined;
  onChange: (status: EnquiryStatus) => void;
}) {
  return (
    <div className="ib-tabs" role="tablist" aria-label="Status">
      {(['open', 'closed'] as const).map((status) => (
        <button
          key={status}
          type="button"
          role="tab"
          className="ib-tab"
          aria-selected={value === status}
          onClick={() => onChange(status)}
        >
          {LABELS[status]}
          <span className="ib-count">{counts ? counts[status].toLocaleString() : '–'}</span>
        </button>
      ))}
    </div>
  );
}
