import type { Page } from '@playwright/test';
import JSZip from 'jszip';
import { logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/** A Word file of about 150 KB whose text unpacks to 46 MB: refused from its sizes, before it is inflated. */
async function wordBomb(): Promise<Buffer> {
  const paragraph =
    '<w:p><w:r><w:t>All work and no play makes Jack a dull boy, all work and no play.</w:t></w:r></w:p>';
  const zip = new JSZip();
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraph.repeat(Math.ceil((46 * 1024 * 1024) / paragraph.length))}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A 1×1 PNG cut after its header: it sniffs as a PNG, but its pixels are missing. */
const TRUNCATED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
).subarray(0, 45);

async function openDocuments(page: Page, narrow: boolean) {
  await page.goto('/settings/assistant');
  if (narrow) {
    await page.getByLabel('Section').click();
    await page.getByTitle('Documents').click();
  } else await page.getByRole('tab', { name: 'Documents' }).click();
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width}×${viewport.height} the owner reads why a Word bomb and a damaged logo were refused`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await logIn(page, LOGINS.owner.email);

    await openDocuments(page, viewport.width < 768);
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'bomb.docx', mimeType: 'application/octet-stream', buffer: await wordBomb() });
    // Chosen, it is read at once: no button to press.
    const refused = page.getByRole('alert').filter({ hasText: 'bomb.docx' });
    await expect(refused).toHaveText(
      '“bomb.docx” unpacks to 46 MB of text, more than the assistant reads from one file (5 MB). Split it into smaller files and upload them one by one.',
    );
    await expect(refused).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );

    await page.goto('/settings/payments');
    const logoField = page.getByText('Logo (PNG or JPEG)');
    await logoField.scrollIntoViewIfNeeded();
    await page
      .locator('input[type=file][accept="image/png,image/jpeg"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TRUNCATED_PNG });
    const damaged = page.getByRole('alert').filter({ hasText: 'logo' });
    await expect(damaged).toHaveText(
      'The logo could not be read: the image is damaged or incomplete. Save it again as PNG or JPEG and upload it.',
    );
    // Beside the button the person just used, not at the foot of the form.
    await expect(damaged).toBeInViewport();
    await expect(page.getByRole('img', { name: 'Current logo' })).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
  });
}
