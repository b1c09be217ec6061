import { type RefObject, useEffect } from 'react';

/**
 * Publishes a strip's height under the top bar as --app-banner-height, so full-height pages (the inbox) make
 * room for it; 0 once it goes.
 */
export function useBannerHeight(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = document.documentElement;
    const el = ref.current;
    if (!el) {
      root.style.setProperty('--app-banner-height', '0px');
      return;
    }
    const publish = () => root.style.setProperty('--app-banner-height', `${el.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.setProperty('--app-banner-height', '0px');
    };
  });
}
