import { answer, MessageTemplateList } from '@switchboard/shared';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSerializer, droppedFields } from '../plugins/serialization.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Every JSON route declares its answer (a contract from packages/shared), so Fastify serialises it and a field
 * the contract does not name is never sent. Walks the registered route table, so a route added later without
 * a response schema fails here. The routes below answer something other than a JSON `{ body }`.
 */
const NOT_JSON: Record<string, string> = {
  'POST /api/v1/feedback/csp': 'browsers post reports; answered 204',
  'GET /api/v1/public/images/:id': 'image bytes',
  'GET /api/v1/uploads/:id/content': 'file bytes',
  'GET /media/:id': 'file bytes for providers',
  'GET /widget.js': 'the loader script',
  'GET /widget': 'the chat frame page',
  'GET /widget/': 'the chat frame page',
  'GET /widget/assets/:file': 'the chat frame files',
  'GET /index.html': 'the web app',
  'GET /favicon.svg': 'the web app',
  'GET /sw.js': 'the service worker script',
  'GET /api/v1/user/me/sounds/:id': 'a sound file',
  'GET /contact': 'the hosted contact page',
  'GET /api/v1/auth/unlock': 'a redirect to the login page',
  'GET /metrics': 'Prometheus text',
  'GET /api/v1/business/customer-invoices/export': 'CSV',
  'GET /api/v1/business/customer-invoices/:id/pdf': 'a PDF',
  'GET /api/v1/business/invoices/secret/:id/pdf': 'a PDF',
  'POST /api/v1/business/customer-invoices/branding/preview': 'a PDF',
  'GET /api/v1/public/fonts/:font/:weight': 'font bytes',
  'GET /r/:token': 'a redirect to the review page',
  'GET /api/v1/business/google/callback': 'a redirect back to the app',
};
/** Provider webhooks answer in the provider's format (TwiML, a challenge, an empty 200), not ours. */
const PROVIDER_WEBHOOK = /^(GET|POST) \/webhooks\/(twilio\/|meta$|google-rcs$|stripe$)/;

function jsonRoutes(routes: readonly RouteOptions[]): string[] {
  return routes
    .filter((r) => !r.url.includes('*') && !r.url.startsWith('/socket.io'))
    .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => ({ m: String(m), r })))
    .filter(({ m }) => m !== 'HEAD' && m !== 'OPTIONS')
    .map(({ m, r }) => ({ key: `${m} ${r.url}`, declared: Boolean(r.schema?.response) }))
    .filter(({ key }) => !(key in NOT_JSON) && !PROVIDER_WEBHOOK.test(key) && !key.startsWith('GET /assets/'))
    .filter(({ declared }) => !declared)
    .map(({ key }) => key);
}

describe('route contracts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every JSON route declares its answer', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(60);
    expect(jsonRoutes(t.app.routeTable)).toEqual([]);
  });

  it('the walk reports a route without an answer', () => {
    const bare = { method: 'GET', url: '/api/v1/made-up', handler: () => ({}) } as unknown as RouteOptions;
    expect(jsonRoutes([bare])).toEqual(['GET /api/v1/made-up']);
  });

  const template = {
    id: 't1',
    name: 'Hello',
    body: 'Hi {first_name}',
    location_id: null,
    updated_at: new Date('2026-01-02T03:04:05Z'),
  };
  const compile = (strict: boolean) =>
    answerSerializer({ strict })({
      schema: answer(MessageTemplateList),
      method: 'GET',
      url: '/api/v1/templates',
    } as never) as (data: unknown) => string;

  it('an answer keeps only what the contract names and sends moments as ISO text', () => {
    const json = compile(false)({ body: { items: [{ ...template, business_id: 'secret-internal' }] } });
    expect(JSON.parse(json)).toEqual({
      body: { items: [{ ...template, updated_at: '2026-01-02T03:04:05.000Z' }] },
    });
  });

  it('in strict mode (the tests) an answer with a field its contract does not name fails, naming it', () => {
    expect(JSON.parse(compile(true)({ body: { items: [template] } })).body.items[0].name).toBe('Hello');
    expect(() => compile(true)({ body: { items: [{ ...template, business_id: 'b1' }] } })).toThrow(
      'GET /api/v1/templates: the answer carries body.items[0].business_id, which its contract does not name',
    );
  });

  it('finds dropped fields at any depth, in arrays too, and nothing when all are kept', () => {
    expect(droppedFields({ a: 1, b: { c: [{ d: 1, e: 2 }] } }, { a: 1, b: { c: [{ d: 1 }] } })).toEqual([
      'b.c[0].e',
    ]);
    expect(droppedFields({ a: [1, 2], b: null }, { a: [1, 2], b: null })).toEqual([]);
  });
});
