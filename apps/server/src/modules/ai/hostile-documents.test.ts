import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, listen, type TestApp } from '../../test/helpers.ts';
import { lyingWordFile, manyPagesPdf, nestedHtml, textBombPdf, wordBomb } from '../../test/hostile-files.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** The longest a plain request may take while a hostile file is being read. */
const ANSWER_WITHIN_MS = 1_500;

describe('files built to hurt a parser are refused, and the server answers throughout', () => {
  let t: TestApp;
  let base: string;
  let owner: string;
  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    site = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(nestedHtml(3_000));
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await createTestApp({ AI_FETCH_ALLOW_ORIGINS: siteUrl, READ_TIMEOUT_MS: '3000' });
    base = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => site.close(r));
  });

  const upload = (form: FormData) =>
    fetch(`${base}/api/v1/business/ai/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: form,
    });
  const file = (name: string, bytes: Buffer | string) => {
    const form = new FormData();
    form.append('files', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
    return form;
  };
  const documentCount = async () => {
    const res = await fetch(`${base}/api/v1/business/ai/documents`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { body: { items: unknown[] } }).body.items.length;
  };

  /**
   * Sends the upload over HTTP and, until it is answered, asks the same server for the document list again and
   * again: each of those answers must come quickly. Returns the upload's status and message and how long the
   * slowest other answer took.
   */
  async function uploadWhileServing(form: FormData) {
    let settled = false;
    const answer = upload(form).then(async (res) => {
      settled = true;
      return { status: res.status, message: ((await res.json()) as { message: string }).message };
    });
    const waits: number[] = [];
    while (!settled) {
      const started = Date.now();
      await documentCount();
      waits.push(Date.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
    return { ...(await answer), slowest: Math.max(...waits), answered: waits.length };
  }

  it('a 160 KB Word file whose text unpacks to 46 MB is refused from its sizes, saying so', async () => {
    const before = await documentCount();
    const bomb = await wordBomb(46);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const res = await uploadWhileServing(file('bomb.docx', bomb));
    expect(res).toMatchObject({
      status: 422,
      message:
        '“bomb.docx” unpacks to 46 MB of text, more than the assistant reads from one file (5 MB). Split it into smaller files and upload them one by one.',
    });
    expect(res.slowest).toBeLessThan(ANSWER_WITHIN_MS);
    expect(await documentCount()).toBe(before);
  });

  it('a Word file whose ZIP headers claim 100 KB for 30 MB of text is stopped while it inflates', async () => {
    const res = await uploadWhileServing(file('lying.docx', await lyingWordFile(30)));
    expect(res).toMatchObject({
      status: 422,
      message:
        '“lying.docx” unpacks to more than it says it holds: it is damaged or built to harm. Save it again from Word and upload it.',
    });
    expect(res.slowest).toBeLessThan(ANSWER_WITHIN_MS);
  });

  it('a PDF of 20,000 pages and a PDF page that inflates to 200 MB of text are refused, saying why', async () => {
    const pages = await uploadWhileServing(file('pages.pdf', manyPagesPdf(20_000)));
    expect(pages).toMatchObject({
      status: 422,
      message:
        '“pages.pdf” has 20,000 pages, more than the assistant reads from one file (2,000). Split it into smaller files and upload them one by one.',
    });
    expect(pages.slowest).toBeLessThan(ANSWER_WITHIN_MS);
    const text = await uploadWhileServing(file('text.pdf', textBombPdf(200)));
    expect(text.status).toBe(422);
    // Cut at the text cap, or stopped first by the worker's memory or time limit on a slower machine: each says why.
    expect(text.message).toMatch(
      /^“text\.pdf” (has more text than the assistant reads from one document \(1,000,000 characters\)|needs more memory to read than the assistant allows|took too long to read \(over 3 seconds\))/,
    );
    expect(text.slowest).toBeLessThan(ANSWER_WITHIN_MS);
  });

  it('HTML nested 3,000 deep, uploaded or fetched, is refused at once from its shape while the server keeps answering', async () => {
    const before = await documentCount();
    const started = Date.now();
    const uploaded = await uploadWhileServing(file('deep.html', nestedHtml(3_000)));
    expect(uploaded).toMatchObject({
      status: 422,
      message:
        '“deep.html” nests its parts 3,003 deep, more than the assistant reads (256): it is damaged, or built to stall a reader. Split it into smaller files and upload them one by one.',
    });
    expect(uploaded.slowest).toBeLessThan(ANSWER_WITHIN_MS);

    const form = new FormData();
    form.append('url', `${siteUrl}/faq`);
    const fetched = await uploadWhileServing(form);
    expect(fetched).toMatchObject({
      status: 422,
      message:
        'The page nests its parts 3,003 deep, more than the assistant reads (256): it is damaged, or built to stall a reader. Save the part you need as a file and upload that instead.',
    });
    expect(fetched.slowest).toBeLessThan(ANSWER_WITHIN_MS);
    // Refused from one pass of the tokenizer, well inside the reader's time limit.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await documentCount()).toBe(before);
  });

  it('HTML nested as deep as real pages are is read', async () => {
    const res = await uploadWhileServing(file('nested.html', nestedHtml(200)));
    expect(res.status).toBe(200);
  });

  it('after every refusal an ordinary Word file and PDF are still read as before', async () => {
    const form = file('payment-faq.docx', fixture('payment-faq.docx'));
    form.append('files', new Blob([new Uint8Array(fixture('clinic-faq.pdf'))]), 'clinic-faq.pdf');
    const res = await upload(form);
    expect(res.status).toBe(200);
    const items = ((await res.json()) as { body: { items: { name: string; section_count: number }[] } }).body
      .items;
    expect(items.map((d) => [d.name, d.section_count])).toEqual([
      ['payment-faq.docx', 2],
      ['clinic-faq.pdf', 2],
    ]);
  });
});
