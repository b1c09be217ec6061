import { PRIMARY_COLOR, PROGRESS_BAR } from '@switchboard/shared';
import type NProgressType from 'nprogress';

let nprogress: Promise<typeof NProgressType> | null = null;
let active = 0;
let stopTimer: ReturnType<typeof setTimeout> | undefined;

/** nprogress itself loads with the first navigation rather than before the first paint (DESIGN §10). */
function load(): Promise<typeof NProgressType> {
  nprogress ??= import('nprogress').then(({ default: NProgress }) => {
    NProgress.configure({
      minimum: PROGRESS_BAR.start,
      showSpinner: false,
      trickleSpeed: 200,
      // nprogress's own template gives the bar role="bar", which is no ARIA role: the bar is decoration.
      template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
    });
    const root = document.documentElement.style;
    root.setProperty('--progress-color', PRIMARY_COLOR);
    root.setProperty('--progress-height', `${PROGRESS_BAR.height}px`);
    return NProgress;
  });
  return nprogress;
}

/**
 * Counted, so a navigation and the lazy page it loads can both hold the bar: it finishes
 * `PROGRESS_BAR.stopDelayMs` after the last holder lets go (spec §2: start 0.7, stop delay 200 ms).
 */
export function startProgress(): void {
  active += 1;
  clearTimeout(stopTimer);
  void load().then((NProgress) => {
    if (active > 0 && !NProgress.isStarted()) NProgress.start();
  });
}

export function stopProgress(): void {
  active = Math.max(0, active - 1);
  if (active > 0) return;
  clearTimeout(stopTimer);
  stopTimer = setTimeout(() => {
    if (active === 0) void load().then((NProgress) => NProgress.done());
  }, PROGRESS_BAR.stopDelayMs);
}
