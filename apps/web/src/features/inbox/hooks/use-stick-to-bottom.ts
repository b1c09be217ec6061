import { type RefObject, useEffect, useRef } from 'react';

/**
 * Keeps a scrolled thread at its newest item while what is in it changes height — images and call cards
 * getting their size after the first scroll, earlier conversations opening above, the reply box growing —
 * for as long as the reader is at the bottom (`atBottom`, which the thread's own scroll handler keeps).
 * It watches sizes rather than waiting for each image's `load`, which a cached image may never fire once
 * React is listening, and which a call card's recording or transcript never fire at all.
 */
export function useStickToBottom(
  scrollRef: RefObject<HTMLElement | null>,
  atBottom: RefObject<boolean>,
  scrollToBottom: () => void,
): void {
  const watched = useRef<{ el: HTMLElement; stop: () => void } | null>(null);
  const follow = useRef(scrollToBottom);
  follow.current = scrollToBottom;

  // The thread's element comes and goes (loading, an error, another enquiry): watch whichever is there.
  useEffect(() => {
    const el = scrollRef.current;
    if (watched.current?.el === el) return;
    watched.current?.stop();
    watched.current = el ? { el, stop: watch(el, () => atBottom.current && follow.current()) } : null;
  });
  useEffect(() => () => watched.current?.stop(), []);
}

/** Calls `changed` whenever the box or anything directly in it changes size, including what is added later. */
function watch(el: HTMLElement, changed: () => void): () => void {
  const sizes = new ResizeObserver(changed);
  sizes.observe(el);
  for (const child of el.children) sizes.observe(child);
  const children = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node instanceof Element) sizes.observe(node);
    changed();
  });
  children.observe(el, { childList: true });
  return () => {
    sizes.disconnect();
    children.disconnect();
  };
}
