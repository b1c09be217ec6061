import { type RefObject, useEffect } from 'react';

/**
 * Publishes the room a fixed element takes at the bottom of the window (its height, and the gap it floats at
 * below and again above it) as a CSS variable on the root element while it is on screen, 0 once it goes, so
 * full-height pages end above it instead of under it.
 */
export function usePublishedHeight(ref: RefObject<HTMLElement | null>, variable: string): void {
  useEffect(() => {
    const root = document.documentElement;
    const el = ref.current;
    if (!el) return;
    const publish = () => {
      const gap = Number.parseFloat(getComputedStyle(el).bottom) || 0;
      root.style.setProperty(variable, el.offsetHeight ? `${el.offsetHeight + 2 * gap}px` : '0px');
    };
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.setProperty(variable, '0px');
    };
  });
}
