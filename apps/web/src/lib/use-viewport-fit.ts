import { useEffect } from 'react';

/** Below this height a phone has its keyboard up (or is held sideways): the page gives the room to its content. */
export const SHORT_VIEWPORT_PX = 600;
/** antd's `md` breakpoint: narrower is a phone. */
const PHONE_MAX_WIDTH_PX = 767.98;

/**
 * Publishes the height that is really visible (the visual viewport: what the on-screen keyboard leaves) as
 * --app-viewport-height, and marks a phone whose visible height is short with `data-viewport="short"` on the
 * root element, so full-height pages fit above the keyboard and the top bar and account strip give way.
 * The layout viewport (100vh) does not shrink for the keyboard on every phone, so it cannot be relied on.
 */
export function useViewportFit(): void {
  useEffect(() => {
    const root = document.documentElement;
    const view = window.visualViewport;
    const publish = () => {
      // Pinch zoom shrinks the visual viewport too, the keyboard only in what is left at scale 1.
      const height = Math.min(window.innerHeight, view ? view.height * view.scale : window.innerHeight);
      const width = window.innerWidth;
      root.style.setProperty('--app-viewport-height', `${Math.round(height)}px`);
      if (width <= PHONE_MAX_WIDTH_PX && height < SHORT_VIEWPORT_PX) root.dataset.viewport = 'short';
      else delete root.dataset.viewport;
    };
    publish();
    view?.addEventListener('resize', publish);
    window.addEventListener('resize', publish);
    return () => {
      view?.removeEventListener('resize', publish);
      window.removeEventListener('resize', publish);
      root.style.removeProperty('--app-viewport-height');
      delete root.dataset.viewport;
    };
  }, []);
}
