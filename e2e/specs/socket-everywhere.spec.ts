import type { Page, WebSocket } from '@playwright/test';
import { accessToken, logIn, openLocations, selectedLocationId } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const socketIo = (ws: WebSocket) => ws.url().includes('/socket.io/');

/** Marks the document, so a later check can tell the page was never reloaded. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
}
const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload);

test('the live connection opens once at sign-in and stays open on every page; what arrived meanwhile is in the inbox on return', async ({
  page,
  request,
}) => {
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => {
    if (socketIo(ws)) sockets.push(ws);
  });
  const opened = page.waitForEvent('websocket', { predicate: socketIo });
  await logIn(page, LOGINS.staff.email);
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
  const socket = await opened;
  expect(sockets).toHaveLength(1);
  await markDocument(page);

  // A settings page: no inbox on screen.
  await openLocations(page);

  // A customer texts while the person is there: the event still reaches this page's connection.
  const token = await accessToken(page);
  const locationId = await selectedLocationId(request, token);
  const name = `Away Tester ${Date.now()}`;
  const text = `Sent while the inbox was closed ${Date.now()}`;
  const delivered = socket.waitForEvent('framereceived', {
    predicate: (frame) => String(frame.payload).includes(text),
  });
  const response = await request.post('/api/v1/sandbox/inbound', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      channel: 'sms',
      location_id: locationId,
      from: { phone: `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name },
      message: text,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await delivered;
  expect(socket.isClosed()).toBe(false);

  // Back in the inbox, without a reload: the new enquiry is there, over the same connection.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Inbox' }).click();
  await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Enquiries' }).getByRole('link', { name: new RegExp(name) }),
  ).toBeVisible();
  expect(await notReloaded(page)).toBe(true);
  expect(sockets).toHaveLength(1);
  expect(socket.isClosed()).toBe(false);
});
