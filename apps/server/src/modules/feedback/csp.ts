import type { Db } from '@switchboard/db';
import { clipText } from '@switchboard/shared';
import type { FastifyPluginAsync } from 'fastify';
import { recordAudit } from '../../lib/audit.ts';
import { ipKey } from '../../lib/limiter.ts';
import { storableText } from '../../lib/text.ts';

/** Where browsers send Content-Security-Policy violations (the enforced policy's and the report-only one's). */
export const CSP_REPORT_PATH = '/api/v1/feedback/csp';

const REPORT_TYPES = ['application/csp-report', 'application/reports+json'];
const MAX_REPORTS = 20;

type Violation = {
  document_uri: string | null;
  violated_directive: string | null;
  blocked_uri: string | null;
  disposition: string | null;
  source_file: string | null;
  line: number | null;
};

const text = (v: unknown) => (typeof v === 'string' ? clipText(storableText(v), 500) : null);

/** Both report formats: CSP2's `{ "csp-report": {...} }` and the Reporting API's `[{ type, body }]`. */
export function violationsOf(payload: unknown): Violation[] {
  const items = Array.isArray(payload) ? payload : [payload];
  const out: Violation[] = [];
  for (const item of items.slice(0, MAX_REPORTS)) {
    if (!item || typeof item !== 'object') continue;
    const legacy = (item as Record<string, unknown>)['csp-report'];
    const r = (legacy ?? (item as Record<string, unknown>).body) as Record<string, unknown> | undefined;
    if (!r || typeof r !== 'object') continue;
    out.push({
      document_uri: text(r['document-uri'] ?? r.documentURL),
      violated_directive: text(r['violated-directive'] ?? r['effective-directive'] ?? r.effectiveDirective),
      blocked_uri: text(r['blocked-uri'] ?? r.blockedURL),
      disposition: text(r.disposition) ?? 'enforce',
      source_file: text(r['source-file'] ?? r.sourceFile),
      line: Number.isFinite(r['line-number'] ?? r.lineNumber)
        ? Number(r['line-number'] ?? r.lineNumber)
        : null,
    });
  }
  return out;
}

async function store(db: Db, violations: Violation[]) {
  if (!violations.length) return;
  for (const detail of violations) await recordAudit(db, null, 'csp_violation', { detail });
}

/**
 * Public on purpose: a browser sends these by itself, with no bearer token. Kept like other feedback, capped
 * per address, and always answered 204 so a page never retries.
 */
export const cspReportRoutes: FastifyPluginAsync = async (app) => {
  const perIp = { name: 'csp_ip', points: 60, windowSeconds: 60 };
  for (const type of REPORT_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(null, null);
      }
    });
  }
  app.post('/feedback/csp', async (request, reply) => {
    if ((await app.limiter.take(perIp, ipKey(request.ip))) === null)
      await store(app.db, violationsOf(request.body));
    return reply.status(204).send();
  });
};
