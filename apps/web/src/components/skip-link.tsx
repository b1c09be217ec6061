import type { MouseEvent } from 'react';

/** Where the skip link goes: the page's main landmark. */
export const MAIN_ID = 'main-content';

/**
 * The first thing Tab reaches on every signed-in page: it moves the focus past the menu and the top bar to the
 * page itself. Hidden until focused.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    // Focus rather than the hash: the router owns the address, and the focus is what a keyboard needs moved.
    event.preventDefault();
    main.focus();
  };
  return (
    <a className="skip-link" href={`#${MAIN_ID}`} onClick={skip}>
      Skip to main content
    </a>
  );
}
