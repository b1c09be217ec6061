import { expect, test, type WebSocket } from '@playwright/test';
import { logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';

const socketIo = (ws: WebSocket) => ws.url().includes('/socket.io/');

test('the live connection is opened once at sign-in and stays open on every page', async ({ page }) => {
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => {
    if (socketIo(ws)) sockets.push(ws);
  });
  await logIn(page, LOGINS.staff.email);
  await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
  await expect.poll(() => sockets.length).toBe(1);

  // A settings page: no inbox on screen, the connection stays (live events reach every page).
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('menuitem', { name: 'Locations' }).click();
  await expect(page).toHaveURL(/\/locations$/);
  await page.waitForTimeout(300);
  expect(sockets[0]!.isClosed()).toBe(false);

  await nav.getByRole('menuitem', { name: 'Inbox' }).click();
  await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
  expect(sockets).toHaveLength(1);
  expect(sockets[0]!.isClosed()).toBe(false);
});
