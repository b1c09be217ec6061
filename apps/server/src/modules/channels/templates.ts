import { channelAccounts } from '@switchboard/db';
import type { MessageDto, SendTemplateRequest } from '@switchboard/shared';
import { isUuid } from '@switchboard/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { GraphApiError } from '../../channels/meta/graph.ts';
import type { WhatsAppTemplateChoice } from '../../channels/meta/outbound.ts';
import {
  fetchWhatsAppTemplates,
  renderTemplate,
  type WhatsAppTemplate,
} from '../../channels/meta/templates.ts';
import type { Account } from '../../channels/types.ts';
import type { Context, Deps } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { TransientSendError } from '../../lib/provider-errors.ts';
import { atTheirLocations, type BusinessActor, requireBusiness } from '../../plugins/auth.ts';
import { loadEnquiry } from '../enquiries/service.ts';
import { sendMessage } from '../messages/service.ts';
import { locationAccount, openAccount } from './accounts.ts';

/** Templates change rarely (Meta reviews them): a cached list is reused for this long. */
const TEMPLATES_TTL_MS = 15 * 60 * 1000;

export type TemplateList = { items: WhatsAppTemplate[]; synced_at: string | null };

/** The account's templates: the cached list while fresh, else synced from the WhatsApp Business account. */
export async function syncTemplates(
  app: Deps,
  account: Account<'whatsapp'>,
  force = false,
): Promise<TemplateList> {
  const cached = account.row.config.whatsapp_templates as WhatsAppTemplate[] | undefined;
  const syncedAt = account.row.config.templates_synced_at as string | undefined;
  const fresh = syncedAt && Date.now() - new Date(syncedAt).getTime() < TEMPLATES_TTL_MS;
  if (cached && fresh && !force) return { items: cached, synced_at: syncedAt ?? null };
  const wabaId = account.config.waba_id;
  if (!wabaId) {
    if (cached) return { items: cached, synced_at: syncedAt ?? null };
    throw new AppError(
      'unprocessable',
      'Add the WhatsApp Business Account ID (waba_id) to this channel to load its message templates.',
    );
  }
  let items: WhatsAppTemplate[];
  try {
    items = await fetchWhatsAppTemplates(
      {
        base: app.config.providers.graphApiBase,
        timeoutMs: app.config.providers.timeoutMs,
        token: account.config.access_token,
      },
      wabaId,
    );
  } catch (error) {
    if (!(error instanceof GraphApiError || error instanceof TransientSendError)) throw error;
    app.log.warn({ err: error, channel_id: account.row.id }, 'WhatsApp templates could not be synced');
    // A stale list beats none: Meta being down should not stop a send.
    if (cached) return { items: cached, synced_at: syncedAt ?? null };
    throw new AppError('service_unavailable', `Could not load templates from WhatsApp. ${error.message}`);
  }
  const synced_at = new Date().toISOString();
  // Merged into the stored config so a concurrent settings change is not overwritten.
  await app.db
    .update(channelAccounts)
    .set({
      config: sql`${channelAccounts.config} || ${JSON.stringify({ whatsapp_templates: items, templates_synced_at: synced_at })}::jsonb`,
    })
    .where(eq(channelAccounts.id, account.row.id));
  return { items, synced_at };
}

/** GET /channels/{id}/whatsapp-templates: any member of the business may read them (staff send them). */
export async function listChannelTemplates(
  { actor, ...app }: Context,
  channelId: string,
  refresh: boolean,
): Promise<TemplateList> {
  const a = requireBusiness(actor);
  if (!isUuid(channelId)) throw notFound('Channel');
  const [row] = await app.db
    .select()
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.id, channelId),
        eq(channelAccounts.business_id, a.business_id),
        atTheirLocations(a, channelAccounts.location_id),
      ),
    );
  if (!row) throw notFound('Channel');
  if (row.provider !== 'whatsapp')
    throw new AppError('unprocessable', 'Only WhatsApp channels have message templates.');
  return syncTemplates(app, openAccount<'whatsapp'>(app.config.encryptionKey, row), refresh);
}

async function enquiryWhatsApp(app: Deps, a: BusinessActor, enquiryId: string) {
  const { e } = await loadEnquiry(app.db, a, enquiryId);
  if (e.channel !== 'whatsapp') {
    throw new AppError('unprocessable', 'WhatsApp templates can only be sent in a WhatsApp conversation.');
  }
  const account = await locationAccount(app.db, app.config.encryptionKey, e.location_id, 'whatsapp');
  if (!account) {
    throw new AppError(
      'unprocessable',
      "Connect a WhatsApp account for this conversation's location to send templates.",
    );
  }
  return account;
}

/** GET /enquiries/{id}/whatsapp-templates: the templates that conversation's location can send. */
export async function listEnquiryTemplates({ actor, ...app }: Context, enquiryId: string) {
  const a = requireBusiness(actor);
  return syncTemplates(app, await enquiryWhatsApp(app, a, enquiryId));
}

/**
 * Sends an approved template through the normal outbound pipeline: stored `queued` with the rendered text
 * (what the customer reads) and the template in meta, so the WhatsApp adapter sends `type: template`.
 */
export async function sendWhatsAppTemplate(
  { actor, ...app }: Context,
  enquiryId: string,
  input: z.output<typeof SendTemplateRequest>,
): Promise<MessageDto> {
  const a = requireBusiness(actor);
  const account = await enquiryWhatsApp(app, a, enquiryId);
  const find = (list: TemplateList) =>
    list.items.find((t) => t.name === input.name && t.language === input.language);
  let template = find(await syncTemplates(app, account));
  template ??= find(await syncTemplates(app, account, true));
  if (!template) {
    throw new AppError(
      'unprocessable',
      `The template "${input.name}" (${input.language}) was not found in your WhatsApp Business account.`,
    );
  }
  if (template.status !== 'APPROVED') {
    throw new AppError(
      'unprocessable',
      `The template "${input.name}" is ${template.status.toLowerCase()}: only approved templates can be sent.`,
    );
  }
  if (input.variables.length !== template.variables.length) {
    const n = template.variables.length;
    throw new AppError(
      'unprocessable',
      `The template "${input.name}" needs ${n} ${n === 1 ? 'variable' : 'variables'}; ${input.variables.length} given.`,
    );
  }
  if (input.variables.some((v) => !v.trim())) {
    throw new AppError('unprocessable', 'Fill in every template variable.');
  }
  const choice: WhatsAppTemplateChoice = {
    name: template.name,
    language: template.language,
    variables: input.variables,
    ...(template.parameter_format === 'NAMED' ? { parameter_names: template.variables } : {}),
  };
  return sendMessage(
    { db: app.db, events: app.events, jobs: app.jobs, channels: app.channels, actor },
    enquiryId,
    { message: renderTemplate(template, input.variables) || `[${template.name}]`, attachments: [], meta: {} },
    {
      meta: { whatsapp_template: choice },
      template: { name: choice.name, language: choice.language, variables: choice.variables },
    },
  );
}
