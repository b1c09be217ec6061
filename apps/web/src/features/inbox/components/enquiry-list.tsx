import { LoadingOutlined } from '@ant-design/icons';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useRef } from 'react';
import { useNow } from '../hooks/use-now.ts';
import type { EnquiryRow as Row } from '../types.ts';
import { EnquiryRow } from './enquiry-row.tsx';
import { Placeholder } from './placeholder.tsx';

const ROW_HEIGHT = 86;
// Start fetching the next page this many rows before the end, so scrolling rarely waits.
const PREFETCH_ROWS = 10;

type Props = {
  rows: Row[];
  selectedId: string | undefined;
  userId: string;
  hrefFor: (id: string) => string;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  empty: ReactNode;
  /** While selecting several: the ticked ids and how to tick one. */
  picked?: { ids: ReadonlySet<string>; toggle: (id: string) => void };
  /** Location names by id, when the list holds every location. */
  locationNames?: ReadonlyMap<string, string>;
};

/**
 * The conversations, virtualised: only the rows in view (and a few either side) are in the page, so ten
 * thousand enquiries scroll as smoothly as ten. Pages load as the end comes near.
 */
export function EnquiryList({
  rows,
  selectedId,
  userId,
  hrefFor,
  hasMore,
  loadingMore,
  loadMore,
  empty,
  picked,
  locationNames,
}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const now = useNow();
  const count = rows.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => rows[index]?.id ?? 'more',
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= rows.length - PREFETCH_ROWS) loadMore();
  }, [hasMore, loadingMore, lastIndex, rows.length, loadMore]);

  return (
    <div ref={scrollRef} className="ib-scroll">
      {rows.length === 0 ? (
        empty
      ) : (
        <ul
          aria-label="Enquiries"
          style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, padding: 0 }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            const style = { transform: `translateY(${item.start}px)` };
            if (!row) {
              return (
                <li
                  key={item.key}
                  className="ib-list-footer"
                  style={{ ...style, height: ROW_HEIGHT }}
                  aria-live="polite"
                >
                  {loadingMore ? (
                    <>
                      <LoadingOutlined /> Loading more…
                    </>
                  ) : null}
                </li>
              );
            }
            return (
              <EnquiryRow
                key={item.key}
                index={item.index}
                measure={virtualizer.measureElement}
                row={row}
                to={hrefFor(row.id)}
                selected={row.id === selectedId}
                userId={userId}
                now={now}
                style={style}
                pick={
                  picked
                    ? { checked: picked.ids.has(row.id), toggle: () => picked.toggle(row.id) }
                    : undefined
                }
                locationName={locationNames?.get(row.location_id)}
              />
            );
          })}
        </ul>
      )}
    </div>
  );
}

const PLACEHOLDER_ROWS = [
  ['a', '58%', '86%'],
  ['b', '42%', '70%'],
  ['c', '64%', '92%'],
  ['d', '36%', '60%'],
  ['e', '52%', '80%'],
  ['f', '46%', '74%'],
] as const;

export function EnquiryListSkeleton() {
  return (
    <div className="ib-scroll" aria-busy="true">
      <span className="sr-only">Loading enquiries…</span>
      {PLACEHOLDER_ROWS.map(([key, name, preview]) => (
        <div
          key={key}
          style={{ display: 'flex', gap: 12, padding: 16, borderBottom: '1px solid var(--ib-split)' }}
        >
          <Placeholder width={36} height={36} round />
          <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 9, paddingTop: 3 }}>
            <Placeholder width={name} height={12} />
            <Placeholder width={preview} height={10} />
            <Placeholder width="28%" height={10} />
          </div>
        </div>
      ))}
    </div>
  );
}
