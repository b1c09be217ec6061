import { logInToLocations } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const LOCATIONS_API = /\/api\/v1\/business\/locations(\?.*)?$/;

test('a server error shows the generic notice with the request id and leads to an error report', async ({
  page,
}) => {
  await logInToLocations(page, LOGINS.owner.email);

  await page.route(LOCATIONS_API, (route) =>
    route.fulfill({
      status: 500,
      headers: { 'request-id': 'test-req-123', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Something went wrong on our side.', code: 'internal_error' }),
    }),
  );
  await page.reload();

  const notice = page.locator('.ant-notification-notice').filter({ hasText: 'Well, this is embarrassing!' });
  // Error notices close after 5 s: wait for it in the page, then hold the pointer over it, as a person
  // reading it would, which keeps it open.
  await notice.waitFor();
  await notice.hover();
  await expect(notice).toContainText('engineers have been notified');
  await expect(notice).toContainText('Error Code: 400-test-req-123');
  const sendFeedback = notice.getByRole('button', { name: 'Send Feedback' });
  await expect(sendFeedback).toBeVisible();
  // Spec §8: bottom right.
  const box = await notice.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport && box.x > viewport.width / 2 && box.y > viewport.height / 2).toBe(true);

  // Send Feedback reloads the same path in report-error mode, and the report reaches the server.
  await page.unroute(LOCATIONS_API);
  await sendFeedback.click();
  await expect(page).toHaveURL(/\/locations\?.*mode=report-error/);
  const url = new URL(page.url());
  expect(url.searchParams.get('error_code')).toBe('400-test-req-123');
  expect(url.searchParams.get('debug_code')).toMatch(/\S+-\d+$/);

  const report = page.getByRole('dialog', { name: 'Report a problem' });
  await expect(report).toContainText('400-test-req-123');
  await report.getByLabel('Details').fill('The locations page would not load.');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/feedback') && r.method() === 'POST');
  await report.getByRole('button', { name: 'Send report' }).click();
  expect((await sent).postDataJSON()).toMatchObject({
    error_code: '400-test-req-123',
    message: 'The locations page would not load.',
    path: '/locations',
  });
  await page.getByText('Thanks. Your report is with our engineers.').waitFor();
  await expect(report).toBeHidden();
  await expect(page).toHaveURL(/\/locations$/);
});
