import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditLog } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

const directives = (header: string | undefined) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

describe('content security policy', () => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'sb-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await createTestApp({ WEB_DIST: web, PUBLIC_URL: 'https://app.example.com' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('serves the app with a policy that stops injected scripts and reports what it blocks', async () => {
    const res = await t.request({ method: 'GET', url: '/inbox', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['script-src-attr']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'", 'wss://app.example.com']);
    expect(csp['report-uri']).toEqual(['/api/v1/feedback/csp']);
    expect(csp).toHaveProperty('upgrade-insecure-requests');
    const reportOnly = directives(res.headers['content-security-policy-report-only'] as string);
    expect(reportOnly['style-src']).toEqual(["'self'"]);
    expect(reportOnly['report-uri']).toEqual(['/api/v1/feedback/csp']);
  });

  it('keeps violation reports from browsers, with no login, and answers 204', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/feedback/csp',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({
        'csp-report': {
          'document-uri': 'https://app.example.com/inbox',
          'violated-directive': 'script-src-elem',
          'blocked-uri': 'inline',
          disposition: 'enforce',
          'line-number': 12,
        },
      }),
    });
    expect(res.statusCode).toBe(204);
    const reporting = await t.request({
      method: 'POST',
      url: '/api/v1/feedback/csp',
      headers: { 'content-type': 'application/reports+json' },
      payload: JSON.stringify([
        {
          type: 'csp-violation',
          body: {
            documentURL: 'https://app.example.com/',
            effectiveDirective: 'style-src-elem',
            blockedURL: 'inline',
            disposition: 'report',
          },
        },
      ]),
    });
    expect(reporting.statusCode).toBe(204);
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'csp_violation'));
    expect(rows.map((r) => r.detail)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ violated_directive: 'script-src-elem', blocked_uri: 'inline', line: 12 }),
        expect.objectContaining({ violated_directive: 'style-src-elem', disposition: 'report' }),
      ]),
    );
  });

  it('ignores a report that is not JSON without storing anything', async () => {
    const before = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'csp_violation'));
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/feedback/csp',
      headers: { 'content-type': 'application/csp-report' },
      payload: '{"csp-report": ',
    });
    expect(res.statusCode).toBe(204);
    const after = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'csp_violation'));
    expect(after).toHaveLength(before.length);
  });
});
