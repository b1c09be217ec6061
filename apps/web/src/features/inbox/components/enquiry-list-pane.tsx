import './inbox.css';
import {
  BellOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  ClockCircleOutlined,
  CloseOutlined,
  FilterOutlined,
  FormOutlined,
  LoadingOutlined,
  MessageOutlined,
  SearchOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { EnquiryStatus, EnquiryView } from '@switchboard/shared';
import { Badge, Button, Input, Popover, Segmented, Tooltip } from 'antd';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { failureText } from '@/lib/failure-text.ts';
import { useLabels } from '@/lib/labels.ts';
import { useSocket } from '@/lib/use-socket.ts';
import { useEnquiries } from '../api/get-enquiries.ts';
import { useEnquiryCounts } from '../api/get-enquiry-counts.ts';
import { memberName, useMembers } from '../api/get-members.ts';
import { ALL_LOCATIONS } from '../api/query-keys.ts';
import { useShortcuts } from '../hooks/use-shortcut.ts';
import type { EnquiryFilters, EnquiryListParams, InboxUser, LocationCounts } from '../types.ts';
import { type Counts, statusTotals } from '../utils/counters.ts';
import { flattenEnquiries } from '../utils/enquiry-cache.ts';
import { activeFilterCount, type ListState, listSearch, readListState } from '../utils/list-params.ts';
import { channelName } from './channel.tsx';
import { EmptyState } from './empty-state.tsx';
import { EnquiryList, EnquiryListSkeleton } from './enquiry-list.tsx';
import { StatusTabs } from './list-tabs.tsx';
import { MatchesElsewhere } from './matches-elsewhere.tsx';
import { MentionList } from './mention-list.tsx';
import { MentionsButton } from './mentions-button.tsx';

const FiltersPanel = lazy(() => import('./filters-panel.tsx'));

const VIEW_OPTIONS: { value: EnquiryView; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'mine', label: 'Mine' },
  { value: 'unassigned', label: 'Unassigned' },
];

const SEARCH_DELAY_MS = 350;

// Loaded when first wanted: selecting several, and the shortcuts overlay.
const BulkBar = lazy(() => import('./bulk-bar.tsx').then((m) => ({ default: m.BulkBar })));
const ShortcutsHelp = lazy(() => import('./shortcuts-help.tsx').then((m) => ({ default: m.ShortcutsHelp })));

type Props = {
  user: InboxUser;
  locationId: string;
  /** The user's copy of the location's counters, shown until the inbox's own arrive. */
  initialCounts: Counts;
  selectedId: string | undefined;
  /** '/inbox': where rows link to (with '/{id}' and the list's query string). */
  basePath: string;
  onCompose: () => void;
  /** The business's location names, shown on each row when the list holds every location. */
  locationNames?: ReadonlyMap<string, string>;
  /** Shown instead of "No open enquiries" in the plain open list (a new business's set-up checklist). */
  welcome?: ReactNode;
};

/** The left pane: status tabs with counts, view mode, search and filters over the live, virtualised list. */
export function EnquiryListPane({
  user,
  locationId,
  initialCounts,
  selectedId,
  basePath,
  onCompose,
  locationNames,
  welcome,
}: Props) {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => readListState(searchParams), [searchParams]);
  const setState = useCallback(
    (next: ListState) => setSearchParams(new URLSearchParams(listSearch(next)), { replace: true }),
    [setSearchParams],
  );

  const listLocation = state.all ? ALL_LOCATIONS : locationId;
  const params: EnquiryListParams = useMemo(
    () => ({
      locationId: listLocation,
      status: state.status,
      view: state.view,
      ...(state.snoozed && state.status === 'open' ? { snoozed: true } : {}),
      ...state.filters,
    }),
    [listLocation, state],
  );
  const list = useEnquiries(params);
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const togglePicked = useCallback(
    (id: string) =>
      setPicked((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  const rows = useMemo(() => flattenEnquiries(list.data), [list.data]);
  const placeholder: LocationCounts = useMemo(
    () => ({ location_id: listLocation, ...pickCounts(initialCounts) }),
    [listLocation, initialCounts],
  );
  const counts = useEnquiryCounts(listLocation, state.all ? undefined : placeholder);
  const totals = counts.data ? statusTotals(counts.data) : undefined;

  const search = listSearch(state);
  const hrefFor = useCallback((id: string) => `${basePath}/${id}${search}`, [basePath, search]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const filtered = activeFilterCount(state.filters) > 0 || Boolean(state.filters.q);

  // j/k move through the list, "/" searches, "?" lists the shortcuts.
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const step = (by: number) => {
    if (!rows.length) return;
    const at = rows.findIndex((r) => r.id === selectedId);
    const next = rows[at === -1 ? 0 : Math.min(rows.length - 1, Math.max(0, at + by))];
    if (next) navigate(hrefFor(next.id));
  };
  useShortcuts({
    j: () => step(1),
    k: () => step(-1),
    '/': () => document.querySelector<HTMLInputElement>('input[aria-label="Search enquiries"]')?.focus(),
    '?': () => setHelpOpen(true),
  });
  const clearFilters = () => setState({ ...state, filters: { channels: [] } });

  return (
    <section className="ib-list-pane" aria-label="Enquiry list">
      <div className="ib-list-head">
        <div className="ib-list-title">
          <span style={{ display: 'inline-flex', alignItems: 'baseline', gap: 10, minWidth: 0 }}>
            <h1>Inbox</h1>
            <LiveStatus />
          </span>
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, flexShrink: 0 }}>
            <MentionsButton
              userId={user.id}
              active={state.mentions}
              onToggle={() => setState({ ...state, mentions: !state.mentions })}
            />
            <SoundAlertsButton user={user} />
            <Tooltip title="Write to a customer who has not messaged yet" placement="bottom">
              <Button type="primary" icon={<FormOutlined />} onClick={onCompose} aria-label="New message">
                New
              </Button>
            </Tooltip>
          </span>
        </div>
        <div className="ib-search-row">
          <SearchBox
            value={state.filters.q ?? ''}
            onSearch={(q) => setState({ ...state, filters: { ...state.filters, q } })}
          />
          <FiltersButton filters={state.filters} onApply={(filters) => setState({ ...state, filters })} />
        </div>
        <StatusTabs
          value={state.status}
          counts={totals}
          onChange={(status) => setState({ ...state, status })}
        />
        <div className="ib-view-row">
          <Segmented
            aria-label="View"
            size="small"
            value={state.view}
            options={VIEW_OPTIONS}
            onChange={(view) => setState({ ...state, view: view as EnquiryView })}
          />
          <Button
            size="small"
            type={picking ? 'primary' : 'text'}
            icon={<CheckSquareOutlined />}
            aria-pressed={picking}
            onClick={() => {
              setPicking((v) => !v);
              setPicked(new Set());
            }}
          >
            Select
          </Button>
          {state.status === 'open' && (
            <Button
              size="small"
              type={state.snoozed ? 'primary' : 'text'}
              icon={<ClockCircleOutlined />}
              aria-pressed={state.snoozed}
              onClick={() => setState({ ...state, snoozed: !state.snoozed })}
            >
              Snoozed
            </Button>
          )}
        </div>
        <FilterChips filters={state.filters} onChange={(filters) => setState({ ...state, filters })} />
        {picking && (
          <Suspense fallback={null}>
            <BulkBar
              ids={[...picked].filter((id) => rows.some((r) => r.id === id))}
              userId={user.id}
              onDone={() => setPicked(new Set())}
              onCancel={() => {
                setPicking(false);
                setPicked(new Set());
              }}
            />
          </Suspense>
        )}
      </div>
      {state.mentions ? (
        <MentionList userId={user.id} hrefFor={hrefFor} selectedId={selectedId} />
      ) : list.isPending ? (
        <EnquiryListSkeleton />
      ) : list.isError && rows.length === 0 ? (
        <div className="ib-scroll">
          <EmptyState
            icon={<WarningOutlined />}
            title="We could not load enquiries"
            action={<Button onClick={() => list.refetch()}>Try again</Button>}
          >
            {failureText(list.error)}
          </EmptyState>
        </div>
      ) : (
        <EnquiryList
          rows={rows}
          selectedId={selectedId}
          userId={user.id}
          hrefFor={hrefFor}
          hasMore={Boolean(hasNextPage)}
          loadingMore={isFetchingNextPage}
          loadMore={loadMore}
          empty={
            welcome && !filtered && state.status === 'open' && state.view === 'all' && !state.snoozed
              ? welcome
              : emptyState(
                  state.status,
                  state.view,
                  filtered,
                  clearFilters,
                  state.filters.q && !state.all && (
                    <MatchesElsewhere
                      params={params}
                      locationNames={locationNames}
                      onShowAll={() => setState({ ...state, all: true })}
                    />
                  ),
                )
          }
          picked={picking ? { ids: picked, toggle: togglePicked } : undefined}
          locationNames={state.all ? locationNames : undefined}
        />
      )}
      {helpOpen && (
        <Suspense fallback={null}>
          <ShortcutsHelp open onClose={() => setHelpOpen(false)} />
        </Suspense>
      )}
    </section>
  );
}

function pickCounts(c: Counts): Counts {
  return {
    assigned_count_open: c.assigned_count_open,
    assigned_count_closed: c.assigned_count_closed,
    unassigned_count_open: c.unassigned_count_open,
    unassigned_count_closed: c.unassigned_count_closed,
  };
}

function emptyState(
  status: EnquiryStatus,
  view: EnquiryView,
  filtered: boolean,
  clear: () => void,
  /** A search's matches at the person's other locations, when it found none here. */
  elsewhere?: ReactNode,
): ReactNode {
  if (filtered) {
    return (
      <EmptyState
        icon={<SearchOutlined />}
        title="No matching enquiries"
        action={<Button onClick={clear}>Clear search and filters</Button>}
      >
        Nothing in {status === 'open' ? 'Open' : 'Closed'} matches this search and these filters.
        {elsewhere}
      </EmptyState>
    );
  }
  if (view === 'mine') {
    return (
      <EmptyState
        icon={<UserOutlined />}
        title={status === 'open' ? 'Nothing assigned to you' : 'None closed yet'}
      >
        {status === 'open'
          ? 'Open an enquiry and choose “Assign to me” to take it on. Enquiries assigned to you appear here.'
          : 'Enquiries assigned to you appear here once they are closed.'}
      </EmptyState>
    );
  }
  if (view === 'unassigned' && status === 'open') {
    return (
      <EmptyState icon={<CheckCircleOutlined />} title="Every open enquiry has an owner">
        New enquiries arrive unassigned and appear here until someone takes them on.
      </EmptyState>
    );
  }
  if (status === 'closed') {
    return (
      <EmptyState icon={<CheckCircleOutlined />} title="No closed enquiries">
        Enquiries you close are kept here, and reopen if the customer writes again.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<MessageOutlined />} title="No open enquiries">
      New messages from customers appear here as they arrive.
    </EmptyState>
  );
}

const STATUS_TEXT = {
  live: 'Live',
  connecting: 'Connecting',
  reconnecting: 'Reconnecting',
  idle: 'Offline',
} as const;
const STATUS_HELP = {
  live: 'New messages appear as they arrive.',
  connecting: 'Connecting for live updates…',
  reconnecting: 'The live connection dropped. Reconnecting; anything missed loads when it is back.',
  idle: 'Not connected for live updates.',
} as const;

function LiveStatus() {
  const { status } = useSocket();
  return (
    <Tooltip title={STATUS_HELP[status]}>
      <span
        className="ib-live"
        data-status={status}
        role="status"
        aria-label={`Connection: ${STATUS_TEXT[status]}`}
      >
        {STATUS_TEXT[status]}
      </span>
    </Tooltip>
  );
}

/**
 * Spec §4: sounds need the browser's notification permission. Offered only to people whose notifications
 * are on and who have not yet been asked.
 */
function SoundAlertsButton({ user }: { user: InboxUser }) {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported || !user.enableNotifications || permission !== 'default') return null;
  return (
    <Tooltip title="Play a sound for new messages while this tab is in the background">
      <Button
        type="text"
        icon={<BellOutlined />}
        aria-label="Turn on sound alerts"
        onClick={() => void Notification.requestPermission().then(setPermission)}
      />
    </Tooltip>
  );
}

function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string | undefined) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearch(text.trim() || undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <Input
      aria-label="Search enquiries"
      placeholder="Search name, number, email or message"
      prefix={<SearchOutlined style={{ color: 'var(--ib-text-3)' }} />}
      allowClear
      value={text}
      onChange={(e) => setText(e.target.value)}
      onPressEnter={() => onSearch(text.trim() || undefined)}
    />
  );
}

function FiltersButton({
  filters,
  onApply,
}: {
  filters: EnquiryFilters;
  onApply: (f: EnquiryFilters) => void;
}) {
  const [open, setOpen] = useState(false);
  const active = activeFilterCount(filters);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      title="Filter enquiries"
      destroyOnHidden
      content={
        <Suspense
          fallback={
            <div style={{ width: 300, padding: 24, textAlign: 'center' }}>
              <LoadingOutlined />
            </div>
          }
        >
          <FiltersPanel
            value={filters}
            onApply={(next) => {
              onApply(next);
              setOpen(false);
            }}
          />
        </Suspense>
      }
    >
      <Badge count={active} size="small" offset={[-4, 4]}>
        <Button icon={<FilterOutlined />} aria-label={active ? `Filters (${active} on)` : 'Filters'} />
      </Badge>
    </Popover>
  );
}

function FilterChips({
  filters,
  onChange,
}: {
  filters: EnquiryFilters;
  onChange: (f: EnquiryFilters) => void;
}) {
  const chips: { key: string; label: string; clear: EnquiryFilters }[] = [];
  const members = useMembers({ enabled: Boolean(filters.assigned_to) });
  const labels = useLabels();
  if (filters.channels.length > 0) {
    chips.push({
      key: 'channels',
      label: filters.channels.map(channelName).join(', '),
      clear: { ...filters, channels: [] },
    });
  }
  if (filters.start_date || filters.end_date) {
    const label =
      filters.start_date === filters.end_date
        ? `On ${filters.start_date}`
        : `${filters.start_date ?? '…'} – ${filters.end_date ?? '…'}`;
    chips.push({ key: 'dates', label, clear: { ...filters, start_date: undefined, end_date: undefined } });
  }
  if (filters.source)
    chips.push({
      key: 'source',
      label: `Source: ${filters.source}`,
      clear: { ...filters, source: undefined },
    });
  if (filters.assigned_to)
    chips.push({
      key: 'assigned_to',
      label: `Assigned to ${memberName(members.data, filters.assigned_to) ?? '…'}`,
      clear: { ...filters, assigned_to: undefined },
    });
  if (filters.label)
    chips.push({
      key: 'label',
      label: `Label: ${labels.data?.find((l) => l.id === filters.label)?.name ?? '…'}`,
      clear: { ...filters, label: undefined },
    });
  if (filters.medium)
    chips.push({
      key: 'medium',
      label: `Medium: ${filters.medium}`,
      clear: { ...filters, medium: undefined },
    });
  if (chips.length === 0) return null;
  return (
    <div className="ib-chips">
      {chips.map((chip) => (
        <span key={chip.key} className="ib-filter-chip">
          <span title={chip.label}>{chip.label}</span>
          <button
            type="button"
            aria-label={`Remove filter ${chip.label}`}
            onClick={() => onChange(chip.clear)}
          >
            <CloseOutlined aria-hidden="true" />
          </button>
        </span>
      ))}
    </div>
  );
}
