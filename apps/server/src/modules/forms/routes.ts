import {
  answer,
  clipText,
  FormPageInfo,
  FormReceived,
  FormWebhookSchema,
  INTAKE_WINDOW_SECONDS,
  intakeLimitsOf,
} from '@switchboard/shared';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { ipKey, waitText } from '../../lib/limiter.ts';
import { storableText } from '../../lib/text.ts';
import {
  FORM_KINDS,
  type FormSubmission,
  findFormTarget,
  formPageInfo,
  getFormWebhook,
  receiveForm,
  safeRedirect,
} from './service.ts';

/** `GET /business/mybusiness/{kind}-webhook` and its rotation, for the owner. */
export const formSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  // Fastify cannot put a parameter inside a path segment, so `{kind}-webhook` is matched per kind.
  for (const kind of Object.keys(FORM_KINDS) as (keyof typeof FORM_KINDS)[]) {
    app.get(
      `/business/mybusiness/${kind}-webhook`,
      { schema: { response: { 200: answer(FormWebhookSchema) } } },
      async (request) => ({
        body: await getFormWebhook(request.ctx, kind, app.config.publicUrl),
      }),
    );
    app.post(
      `/business/mybusiness/${kind}-webhook/rotate`,
      { schema: { response: { 200: answer(FormWebhookSchema) } } },
      async (request) => ({
        body: await getFormWebhook(request.ctx, kind, app.config.publicUrl, true),
      }),
    );
  }
};

const MAX_FIELDS = 50;
const MAX_VALUE = 10_000;

function toFields(body: unknown): FormSubmission {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('bad_request', 'Send the form as JSON or form-encoded fields.');
  }
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length > MAX_FIELDS)
    throw new AppError('bad_request', `A form may have at most ${MAX_FIELDS} fields.`);
  const fields: FormSubmission = {};
  // What a visitor typed is kept even with characters the database refuses (a NUL, half an emoji): cleaned.
  for (const [key, value] of storableText(entries)) {
    if (value === null || value === undefined) continue;
    const text = Array.isArray(value)
      ? value.join(', ')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
    if (text.length > MAX_VALUE || key.length > 100)
      throw new AppError('bad_request', `The field "${clipText(key, 100)}" is too long.`);
    fields[key] = text;
  }
  return fields;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Public: `POST /webhooks/forms/{token}` from a website's form (form-encoded) or a script (JSON). */
export const formWebhookRoutes: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const fields: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(body as string)) {
      const prev = fields[k];
      fields[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    done(null, fields);
  });

  app.get<{ Params: { token: string } }>(
    '/webhooks/forms/:token',
    { schema: { response: { 200: answer(FormPageInfo) } } },
    async (request) => ({ body: await formPageInfo(app.db, request.params.token) }),
  );

  // JSON for a script; a thank-you page or a redirect (not serialised) for an HTML form.
  app.post<{ Params: { token: string } }>(
    '/webhooks/forms/:token',
    { schema: { response: { 200: answer(FormReceived) } } },
    async (request, reply) => {
      const fields = toFields(request.body);
      const target = await findFormTarget(app.db, request.params.token, fields);
      // Counted per location (its owner sets the limit) and per sending address.
      const wait = await app.limiter.take(
        {
          name: 'form_ip',
          points: intakeLimitsOf(target.location.intake_limits).forms_per_ip,
          windowSeconds: INTAKE_WINDOW_SECONDS,
        },
        `${target.location.id}:${ipKey(request.ip)}`,
      );
      if (wait) {
        throw new AppError(
          'rate_limited',
          `Too many form submissions from this address. Please try again in ${waitText(wait)}.`,
          { headers: { 'retry-after': String(wait) } },
        );
      }
      await receiveForm(app, target, fields);

      const isHtmlForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
      if (!isHtmlForm) return { body: { received: true as const } };
      // Back to the business's own site only: never an open redirect to wherever the post says.
      const redirect = safeRedirect(fields._redirect, target.site_origins);
      if (redirect) return reply.redirect(redirect, 303);
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Thank you</title>` +
            `<body style="font-family:system-ui;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>Thank you</h1>` +
            `<p>${escapeHtml('We have your message and will be in touch soon.')}</p></body>`,
        );
    },
  );
};
