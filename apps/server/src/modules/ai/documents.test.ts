import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, eventually, type TestApp } from '../../test/helpers.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

type Part = { field: string; name?: string; bytes: Buffer | string; type?: string };

function multipart(parts: Part[]) {
  const boundary = '----switchboard-ai-test';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head = p.name
      ? `Content-Disposition: form-data; name="${p.field}"; filename="${p.name}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}`
      : `Content-Disposition: form-data; name="${p.field}"`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), Buffer.from(p.bytes), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

type Doc = {
  id: string;
  name: string;
  status: string;
  error: string | null;
  section_count: number;
  proposed_count: number;
};
type Faq = { id: string; question: string; answer: string; document_id: string | null; origin: string };

describe('what the assistant learns from documents and websites', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let site: Server;
  let siteUrl: string;
  let page = '';

  const upload = (parts: Part[], token = owner) =>
    t.request({ method: 'POST', url: '/api/v1/business/ai/upload', token, ...multipart(parts) });
  const documents = async (): Promise<Doc[]> =>
    (await t.request({ method: 'GET', url: '/api/v1/business/ai/documents', token: owner })).json().body
      .items;
  const proposed = async (): Promise<Faq[]> =>
    (
      await t.request({
        method: 'GET',
        url: '/api/v1/business/ai/faqs?status=proposed&page_size=50',
        token: owner,
      })
    ).json().body.items;

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/image') {
        res.setHeader('content-type', 'image/png');
        res.end('png');
        return;
      }
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await createTestApp({ AI_FETCH_ALLOW_ORIGINS: siteUrl });
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => site.close(r));
  });

  it('reads a PDF and a Word file by their headings and proposes FAQs from them; accepting one makes it an FAQ', async () => {
    const res = await upload([
      { field: 'files', name: 'clinic-faq.pdf', bytes: fixture('clinic-faq.pdf'), type: 'application/pdf' },
      { field: 'files', name: 'payment-faq.docx', bytes: fixture('payment-faq.docx') },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body.items.map((d: Doc) => [d.name, d.section_count])).toEqual([
      ['clinic-faq.pdf', 2],
      ['payment-faq.docx', 2],
    ]);
    await eventually(async () => (await documents()).every((d) => d.status === 'ready'));
    const faqs = await proposed();
    expect(faqs.map((f) => [f.question, f.answer, f.origin]).sort()).toEqual([
      [
        'Can I bring my children to my appointment?',
        'Children are welcome in the waiting room; a staff member can keep an eye on them during short visits.',
        'document',
      ],
      ['Do you bulk bill?', 'We bulk bill children under 12.', 'document'],
      [
        'Do you offer payment plans?',
        'Yes, treatments over $500 can be paid in four fortnightly instalments with no interest.',
        'document',
      ],
      ['What about parking?', 'Free parking behind the building on Kerr Street.', 'document'],
    ]);
    const plans = faqs.find((f) => f.question === 'Do you offer payment plans?')!;
    const accepted = await t.request({
      method: 'PUT',
      url: `/api/v1/business/ai/faqs/${plans.id}`,
      token: owner,
      payload: { status: 'active' },
    });
    expect(accepted.json().body).toMatchObject({ status: 'active', question: 'Do you offer payment plans?' });
    const reply = await t.request({
      method: 'POST',
      url: '/api/v1/business/ai/messages',
      token: owner,
      payload: { message: 'can I pay it off in instalments?' },
    });
    expect(reply.json().body.reply.ai).toMatchObject({ action: 'answer', faq_ids: [plans.id] });
  });

  it('answers from a document part nobody has turned into an FAQ yet, naming the document part as its source', async () => {
    const reply = await t.request({
      method: 'POST',
      url: '/api/v1/business/ai/messages',
      token: owner,
      payload: { message: 'is the parking free?' },
    });
    expect(reply.json().body.reply.ai).toMatchObject({
      action: 'answer',
      sources: [{ kind: 'section', title: 'Parking' }],
    });
    expect(reply.json().body.message).toContain('Free parking behind the building on Kerr Street.');
  });

  it('refuses a scanned PDF, a file it cannot read and a missing file, saying why, and keeps nothing', async () => {
    const before = (await documents()).length;
    const scanned = await upload([{ field: 'files', name: 'scan.pdf', bytes: fixture('scanned.pdf') }]);
    expect(scanned.statusCode).toBe(422);
    expect(scanned.json().message).toBe(
      '“scan.pdf” has no text in it: it looks like a scan. Upload a PDF with selectable text, or a Word or text file.',
    );
    const exe = await upload([{ field: 'files', name: 'setup.exe', bytes: Buffer.from('MZ\x90\x00binary') }]);
    expect(exe.statusCode).toBe(415);
    expect(exe.json().message).toMatch(/Upload a PDF, a Word file \(\.docx\), a text or an HTML file\./);
    const nothing = await upload([{ field: 'recrawl', bytes: 'never' }]);
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().message).toBe('Choose a file, or write a website address.');
    expect(
      (await upload([{ field: 'files', name: 'a.txt', bytes: 'Parking\n\nLots of it here, plenty.' }], staff))
        .statusCode,
    ).toBe(403);
    expect((await documents()).length).toBe(before);
  });

  it('reads a website through the guarded fetch, fetches it again on request, and refuses private addresses', async () => {
    page = `<html><head><title>Harbourside FAQ</title></head><body><nav>Home | Book</nav><main><article>
      <h1>Questions</h1>
      <h2>Do you open on Sundays?</h2><p>No, we are closed on Sundays and public holidays, sorry.</p>
      <h2>Is there wheelchair access?</h2><p>Yes, there is a ramp at the front door and a lift to every floor.</p>
      </article></main><footer>© Harbourside</footer></body></html>`;
    const res = await upload([
      { field: 'url', bytes: `${siteUrl}/faq` },
      { field: 'recrawl', bytes: 'weekly' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json().body.items[0] as Doc & { recrawl: string };
    expect(doc).toMatchObject({ name: 'Harbourside FAQ', recrawl: 'weekly', section_count: 2 });
    await eventually(async () =>
      (await proposed()).some(
        (f) => f.document_id === doc.id && f.question === 'Is there wheelchair access?',
      ),
    );

    page = page.replace('a ramp at the front door', 'a ramp at the side door');
    const again = await t.request({
      method: 'POST',
      url: `/api/v1/business/ai/documents/${doc.id}/crawl`,
      token: owner,
    });
    expect(again.json().body.status).toBe('processing');
    const changed = await eventually(async () =>
      (await proposed()).find((f) => f.document_id === doc.id && f.answer.includes('side door')),
    );
    expect(changed.question).toBe('Is there wheelchair access?');
    expect((await proposed()).filter((f) => f.document_id === doc.id)).toHaveLength(2);

    const blocked = await upload([{ field: 'url', bytes: 'http://127.0.0.1:9/admin' }]);
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().message).toMatch(/^That address cannot be fetched: .*loopback/);
    const notPage = await upload([{ field: 'url', bytes: `${siteUrl}/image` }]);
    expect(notPage.json().message).toBe('That address is not a web page (image/png).');
    const other = await t.login(DEMO_LOGINS.northsideOwner);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/business/ai/documents/${doc.id}`, token: other }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/business/ai/documents/${doc.id}`, token: owner }))
        .statusCode,
    ).toBe(200);
    expect((await proposed()).filter((f) => f.document_id === doc.id)).toHaveLength(0);
  });
});
