import { MESSAGE_INPUT_HEIGHT } from '@switchboard/shared';
import { type RefObject, useLayoutEffect, useState, useSyncExternalStore } from 'react';

/** A phone, or any window whose visible height is short (a phone's keyboard up): the reply box starts small. */
const COMPACT_QUERY = '(max-width: 767.98px), (max-height: 599.98px)';
/** One line of text with the box's padding (14 px at 1.55, 12 px above and below). */
const ONE_LINE_PX = 46;
/** A growing box stops at this share of what is visible (four lines or so above a keyboard), then scrolls inside. */
const MAX_SHARE = 0.2;

function subscribeCompact(onChange: () => void) {
  const query = window.matchMedia(COMPACT_QUERY);
  query.addEventListener('change', onChange);
  window.visualViewport?.addEventListener('resize', onChange);
  return () => {
    query.removeEventListener('change', onChange);
    window.visualViewport?.removeEventListener('resize', onChange);
  };
}
const isCompact = () =>
  window.matchMedia(COMPACT_QUERY).matches || (window.visualViewport?.height ?? window.innerHeight) < 600;

/**
 * The reply box's height: the spec's 150 px where there is room; on a phone, one line that grows with what is
 * written up to a fifth of the screen, so the conversation keeps most of the height above the keyboard.
 */
export function useReplyBoxHeight(ref: RefObject<HTMLTextAreaElement | null>, text: string): number {
  const compact = useSyncExternalStore(subscribeCompact, isCompact, () => false);
  const [height, setHeight] = useState(MESSAGE_INPUT_HEIGHT);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the text changes what the box needs to show.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !compact) return setHeight(MESSAGE_INPUT_HEIGHT);
    const shown = el.style.height;
    el.style.height = '0px';
    const needed = el.scrollHeight;
    el.style.height = shown;
    const visible = window.visualViewport?.height ?? window.innerHeight;
    const most = Math.max(ONE_LINE_PX * 2, Math.round(visible * MAX_SHARE));
    setHeight(Math.min(Math.max(needed, ONE_LINE_PX), most));
  }, [ref, text, compact]);
  return height;
}
