import { SESSION_EXPIRED_NOTICE } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('an expired or invalid access cookie says the session ticked out and lands on /', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([
    { name: 'access', value: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoieCJ9.not-a-real-signature', url: baseURL },
    { name: 'key', value: 'stale-key', url: baseURL },
    { name: 'iv', value: 'stale-iv', url: baseURL },
  ]);

  // With an access cookie the login page sends the browser into the app, whose first call gets a 401.
  await page.goto('/');
  // The notice lasts 5 s, so it is awaited in the page rather than polled from here.
  await page.getByText(SESSION_EXPIRED_NOTICE).waitFor();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();

  const names = (await context.cookies()).map((c) => c.name);
  expect(names).not.toContain('access');
  expect(names).not.toContain('key');
  expect(names).not.toContain('iv');
});
