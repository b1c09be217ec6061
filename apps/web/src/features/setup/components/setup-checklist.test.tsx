// @vitest-environment jsdom
import type { SetupChecklistJson } from '@switchboard/shared';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setBusinessCountry } from '../../../lib/locale.ts';
import { inboxWelcome, setupProgress } from '../utils/items.ts';
import { SetupChecklist } from './setup-checklist.tsx';

afterEach(cleanup);
beforeAll(() => {
  // An Australian business: its numbers are written as dialled there.
  setBusinessCountry('AU');
  // antd reads the media queries of the window jsdom does not have.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});

const SETUP: SetupChecklistJson = {
  items: [
    { key: 'number', done: true, location_id: 'loc-1' },
    { key: 'chat', done: false, location_id: 'loc-1' },
    { key: 'team', done: true, location_id: null },
    { key: 'assistant', done: true, location_id: null },
    { key: 'payments', done: false, location_id: null },
    { key: 'review_link', done: false, location_id: 'loc-2' },
    { key: 'hours', done: false, location_id: 'loc-1' },
  ],
  number: { phone: '+61491570000', location_id: 'loc-1', location_name: 'Bayside', sandbox: false },
  has_enquiries: false,
  dismissed_at: null,
};

const hrefOf = (key: string, locationId: string | null) =>
  `/screen/${key}${locationId ? `?at=${locationId}` : ''}`;

function WhereAmI() {
  const { pathname, search } = useLocation();
  return <p>Now at {`${pathname}${search}`}</p>;
}

function renderChecklist(canManage: boolean, setup = SETUP) {
  return render(
    <MemoryRouter initialEntries={['/inbox']}>
      <Routes>
        <Route
          path="/inbox"
          element={
            <SetupChecklist
              setup={setup}
              canManage={canManage}
              hrefOf={hrefOf}
              chatSnippet={(id) => <code>{`<script data-location="${id}"></script>`}</code>}
            />
          }
        />
        <Route path="/screen/:key" element={<WhereAmI />} />
      </Routes>
    </MemoryRouter>,
  );
}

const itemOf = (title: string) => screen.getByRole('heading', { name: title }).closest('li') as HTMLElement;

describe('SetupChecklist', () => {
  it('shows the progress, ticks what is done and offers the owner a button to each screen still to do', () => {
    renderChecklist(true);
    expect(screen.getByText('3 of 7 done')).toBeTruthy();
    const number = itemOf('Get a number customers can text');
    expect(within(number).getByRole('img', { name: 'Done' })).toBeTruthy();
    expect(within(number).queryByRole('link')).toBeNull();
    expect(
      within(number).getByText('Text HELLO to 0491 570 000 from your phone; it will appear here.'),
    ).toBeTruthy();

    const review = itemOf('Set your review link');
    expect(within(review).getByRole('img', { name: 'To do' })).toBeTruthy();
    expect(
      within(review).getByText(
        'Review requests take happy customers straight to the page where they leave a review.',
      ),
    ).toBeTruthy();
    expect(within(review).getByRole('link', { name: 'Set the review link' }).getAttribute('href')).toBe(
      '/screen/review_link?at=loc-2',
    );
    // The chat's snippet to paste, until a chat arrives from the website.
    expect(
      within(itemOf('Put the chat on your website')).getByText('<script data-location="loc-1"></script>'),
    ).toBeTruthy();

    fireEvent.click(
      within(itemOf('Set your opening hours')).getByRole('link', { name: 'Set opening hours' }),
    );
    expect(screen.getByText('Now at /screen/hours?at=loc-1')).toBeTruthy();
  });

  it('shows staff every item but no buttons to the owner’s screens: they are told to ask the owner', () => {
    renderChecklist(false);
    expect(screen.getByText('3 of 7 done')).toBeTruthy();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(screen.getByText('Ask the owner to connect Stripe.')).toBeTruthy();
    expect(screen.getByText('Ask the owner to add the chat to your website.')).toBeTruthy();
    expect(screen.queryByText(/<script/)).toBeNull();
    // Done items ask nothing of anyone.
    expect(screen.queryByText('Ask the owner to invite your teammates.')).toBeNull();
  });

  it('points a sandbox number at the sandbox phone', () => {
    renderChecklist(true, { ...SETUP, number: { ...SETUP.number!, sandbox: true } });
    expect(
      screen.getByText('Text HELLO to 0491 570 000 from the sandbox phone; it will appear here.'),
    ).toBeTruthy();
  });
});

describe('inboxWelcome', () => {
  const allDone = { ...SETUP, items: SETUP.items.map((i) => ({ ...i, done: true })) };
  it.each([
    ['a new business with steps left', SETUP, 'checklist'],
    ['every step done', allDone, 'all-set'],
    ['a business with enquiries', { ...SETUP, has_enquiries: true }, 'none'],
    ['the owner put it away', { ...SETUP, dismissed_at: '2026-11-29T00:00:00.000Z' }, 'none'],
    ['not loaded', undefined, 'none'],
  ] as const)('%s: %s', (_name, setup, expected) => {
    expect(inboxWelcome(setup)).toBe(expected);
  });

  it('counts "n of m done"', () => {
    expect(setupProgress(SETUP)).toEqual({ done: 3, total: 7, text: '3 of 7 done', complete: false });
    expect(setupProgress(allDone).complete).toBe(true);
  });
});
