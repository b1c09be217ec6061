import { businessEmails, businesses, businessPhones, type Db, type DbOrTx, uploads } from '@switchboard/db';
import { formatFileSize, type SubscriptionStatus, subscriptionStatus } from '@switchboard/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Config } from '../../config.ts';
import { AppError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { BusinessCache } from '../../lib/cache.ts';
import { isUuid, type Page, type PageOf } from '../../lib/fields.ts';
import {
  deleteUpload,
  deleteUploadFile,
  findUpload,
  publicImagePath,
  saveUpload,
  uploadIdOfImage,
} from '../../lib/storage.ts';
import {
  type Actor,
  type BusinessActor,
  requireBusiness,
  requireOwner,
  requireSuperAdmin,
} from '../../plugins/auth.ts';
import { assertOwnLocation } from '../locations/service.ts';

export type Ctx = { db: Db; config: Config; cache: BusinessCache };

type BusinessRow = typeof businesses.$inferSelect;

export type BusinessJson = {
  id: string;
  name: string;
  owner_user_id: string | null;
  timezone: string;
  website: string | null;
  /** Origins of the business's other sites (`https://shop.example.com`): where forms may redirect. */
  site_origins: string[];
  industry: string | null;
  image: string | null;
  plan: BusinessRow['plan'];
  trial_end_date: Date | null;
  subscription_past_due: boolean;
  next_invoice_attempt: Date | null;
  message_limit: number;
  messages_sent_today: number;
  verified: boolean;
};

export type BusinessPatch = Partial<{
  name: string;
  timezone: string;
  website: string | null;
  site_origins: string[];
  industry: string | null;
}>;

/** The calendar day it is now in the time zone, as 'YYYY-MM-DD'. */
function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export function toBusinessJson(b: BusinessRow, now = new Date()): BusinessJson {
  // The counter belongs to the day in messages_count_day; once that day is over nothing has been sent today.
  const countsToday = !b.messages_count_day || b.messages_count_day === dayIn(b.timezone, now);
  return {
    id: b.id,
    name: b.name,
    owner_user_id: b.owner_user_id,
    timezone: b.timezone,
    website: b.website,
    site_origins: b.site_origins,
    industry: b.industry,
    image: b.image,
    plan: b.plan,
    trial_end_date: b.trial_end_date,
    subscription_past_due: b.subscription_past_due,
    next_invoice_attempt: b.next_invoice_attempt,
    message_limit: b.message_limit,
    messages_sent_today: countsToday ? b.messages_sent_today : 0,
    verified: b.verified,
  };
}

/** The business row, locked for the rest of the transaction so concurrent changes to it queue up. */
async function lockBusiness(tx: DbOrTx, businessId: string): Promise<BusinessRow> {
  const [row] = await tx.select().from(businesses).where(eq(businesses.id, businessId)).for('update');
  if (!row) throw notFound('Business');
  return row;
}

const audit = (tx: DbOrTx, actor: Actor, action: string, target: string | null, detail?: object) =>
  recordAudit(tx, actor, action, { target, detail });

export async function updateBusiness(ctx: Ctx, actor: Actor, patch: BusinessPatch): Promise<BusinessJson> {
  const a = requireOwner(actor, 'change the business details');
  const row = await ctx.db.transaction(async (tx) => {
    const current = await lockBusiness(tx, a.business_id);
    if (Object.keys(patch).length === 0) return current;
    const [updated] = await tx
      .update(businesses)
      .set(patch)
      .where(eq(businesses.id, a.business_id))
      .returning();
    await audit(tx, a, 'business.update', a.business_id, patch);
    return updated!;
  });
  ctx.cache.invalidate(a.business_id);
  return toBusinessJson(row);
}

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

export const imageTooLarge = (maxBytes: number) =>
  new AppError(
    'payload_too_large',
    `The image is too large. Choose one of at most ${formatFileSize(maxBytes)}.`,
  );

/**
 * Replaces the business image. The type is read from the bytes, never from the file name or the browser's
 * claim. The old image's file is removed only after the new one is committed.
 */
export async function setBusinessImage(
  ctx: Ctx,
  actor: Actor,
  file: { name: string; bytes: Buffer },
): Promise<BusinessJson> {
  const a = requireOwner(actor, 'change the business image');
  if (file.bytes.length > ctx.config.imageMaxBytes) throw imageTooLarge(ctx.config.imageMaxBytes);
  const sniffed = await fileTypeFromBuffer(file.bytes);
  if (!sniffed || !IMAGE_TYPES.has(sniffed.mime)) {
    throw new AppError('unsupported_media_type', 'The image must be a PNG, JPEG, WebP or GIF file.');
  }
  const upload = await saveUpload(ctx.db, ctx.config, {
    business_id: a.business_id,
    user_id: a.user_id,
    name: file.name,
    content_type: sniffed.mime,
    bytes: file.bytes,
  });
  let result: { row: BusinessRow; old?: { storage_key: string } };
  try {
    result = await ctx.db.transaction(async (tx) => {
      const current = await lockBusiness(tx, a.business_id);
      const old = await replacedUpload(tx, current);
      const [row] = await tx
        .update(businesses)
        .set({ image: publicImagePath(upload.id) })
        .where(eq(businesses.id, a.business_id))
        .returning();
      await audit(tx, a, 'business.image.update', a.business_id, {
        upload_id: upload.id,
        name: upload.name,
        content_type: upload.content_type,
        size: upload.size,
      });
      return { row: row!, old };
    });
  } catch (error) {
    // Best effort: the failure that brought us here is the one to report.
    await deleteUpload(ctx.db, ctx.config, upload).catch(() => {});
    throw error;
  }
  await removeReplacedFile(ctx.config, result.old);
  ctx.cache.invalidate(a.business_id);
  return toBusinessJson(result.row);
}

export async function clearBusinessImage(ctx: Ctx, actor: Actor): Promise<BusinessJson> {
  const a = requireOwner(actor, 'change the business image');
  const { row, old } = await ctx.db.transaction(async (tx) => {
    const current = await lockBusiness(tx, a.business_id);
    if (!current.image) return { row: current, old: undefined };
    const old = await replacedUpload(tx, current);
    const [row] = await tx
      .update(businesses)
      .set({ image: null })
      .where(eq(businesses.id, a.business_id))
      .returning();
    await audit(tx, a, 'business.image.delete', a.business_id, { image: current.image });
    return { row: row!, old };
  });
  await removeReplacedFile(ctx.config, old);
  ctx.cache.invalidate(a.business_id);
  return toBusinessJson(row);
}

/** After commit the change stands: a file that cannot be removed only costs disk, not a failed request. */
async function removeReplacedFile(config: Config, old: { storage_key: string } | undefined) {
  if (old) await deleteUploadFile(config, old).catch(() => {});
}

/** The upload the business image points at, its row deleted in the transaction; the file goes after commit. */
async function replacedUpload(tx: DbOrTx, business: BusinessRow) {
  const id = uploadIdOfImage(business.image);
  const upload = id && isUuid(id) ? await findUpload(tx, business.id, id) : undefined;
  if (!upload) return undefined;
  await tx.delete(uploads).where(eq(uploads.id, upload.id));
  return { storage_key: upload.storage_key };
}

// ---------------------------------------------------------------------------------------------------------
// Business phone numbers and email addresses: the same small list twice, each optionally tied to a location.

export type PhoneJson = {
  id: string;
  label: string | null;
  phone: string;
  location_id: string | null;
  created_at: Date;
};
export type EmailJson = {
  id: string;
  label: string | null;
  email: string;
  location_id: string | null;
  created_at: Date;
};
export type PhoneInput = { label?: string | null; phone: string; location_id?: string | null };
export type EmailInput = { label?: string | null; email: string; location_id?: string | null };

const toPhoneJson = (p: typeof businessPhones.$inferSelect): PhoneJson => ({
  id: p.id,
  label: p.label,
  phone: p.phone,
  location_id: p.location_id,
  created_at: p.created_at,
});

const toEmailJson = (e: typeof businessEmails.$inferSelect): EmailJson => ({
  id: e.id,
  label: e.label,
  email: e.email,
  location_id: e.location_id,
  created_at: e.created_at,
});

const pageOf = <T>(items: T[], page: Page, total: number | undefined): PageOf<T> => ({
  items,
  page: page.page,
  page_size: page.page_size,
  total: total ?? 0,
});

export async function listPhones(db: Db, actor: Actor, page: Page): Promise<PageOf<PhoneJson>> {
  const { business_id } = requireBusiness(actor);
  const mine = eq(businessPhones.business_id, business_id);
  const rows = await db
    .select()
    .from(businessPhones)
    .where(mine)
    .orderBy(desc(businessPhones.created_at), desc(businessPhones.id))
    .limit(page.page_size)
    .offset((page.page - 1) * page.page_size);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(businessPhones).where(mine);
  return pageOf(rows.map(toPhoneJson), page, count?.n);
}

const MANAGE_PHONES = 'manage the business phone numbers';
const MANAGE_EMAILS = 'manage the business email addresses';

export async function createPhone(db: Db, actor: Actor, input: PhoneInput): Promise<PhoneJson> {
  const a = requireOwner(actor, MANAGE_PHONES);
  return db.transaction(async (tx) => {
    await assertOwnLocation(tx, a.business_id, input.location_id);
    const [row] = await tx
      .insert(businessPhones)
      .values({ ...input, business_id: a.business_id })
      .returning();
    await audit(tx, a, 'business.phone.create', row!.id, input);
    return toPhoneJson(row!);
  });
}

async function findPhone(db: DbOrTx, a: BusinessActor, id: string) {
  if (!isUuid(id)) throw notFound('Phone number');
  const [row] = await db
    .select()
    .from(businessPhones)
    .where(and(eq(businessPhones.id, id), eq(businessPhones.business_id, a.business_id)));
  if (!row) throw notFound('Phone number');
  return row;
}

export async function updatePhone(
  db: Db,
  actor: Actor,
  id: string,
  patch: Partial<PhoneInput>,
): Promise<PhoneJson> {
  const a = requireOwner(actor, MANAGE_PHONES);
  return db.transaction(async (tx) => {
    const current = await findPhone(tx, a, id);
    if (Object.keys(patch).length === 0) return toPhoneJson(current);
    await assertOwnLocation(tx, a.business_id, patch.location_id);
    const [row] = await tx
      .update(businessPhones)
      .set(patch)
      .where(and(eq(businessPhones.id, current.id), eq(businessPhones.business_id, a.business_id)))
      .returning();
    await audit(tx, a, 'business.phone.update', current.id, patch);
    return toPhoneJson(row!);
  });
}

export async function deletePhone(db: Db, actor: Actor, id: string): Promise<{ id: string; deleted: true }> {
  const a = requireOwner(actor, MANAGE_PHONES);
  return db.transaction(async (tx) => {
    const current = await findPhone(tx, a, id);
    await tx
      .delete(businessPhones)
      .where(and(eq(businessPhones.id, current.id), eq(businessPhones.business_id, a.business_id)));
    await audit(tx, a, 'business.phone.delete', current.id, { phone: current.phone });
    return { id: current.id, deleted: true as const };
  });
}

export async function listEmails(db: Db, actor: Actor, page: Page): Promise<PageOf<EmailJson>> {
  const { business_id } = requireBusiness(actor);
  const mine = eq(businessEmails.business_id, business_id);
  const rows = await db
    .select()
    .from(businessEmails)
    .where(mine)
    .orderBy(desc(businessEmails.created_at), desc(businessEmails.id))
    .limit(page.page_size)
    .offset((page.page - 1) * page.page_size);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(businessEmails).where(mine);
  return pageOf(rows.map(toEmailJson), page, count?.n);
}

export async function createEmail(db: Db, actor: Actor, input: EmailInput): Promise<EmailJson> {
  const a = requireOwner(actor, MANAGE_EMAILS);
  return db.transaction(async (tx) => {
    await assertOwnLocation(tx, a.business_id, input.location_id);
    const [row] = await tx
      .insert(businessEmails)
      .values({ ...input, business_id: a.business_id })
      .returning();
    await audit(tx, a, 'business.email.create', row!.id, input);
    return toEmailJson(row!);
  });
}

async function findEmail(db: DbOrTx, a: BusinessActor, id: string) {
  if (!isUuid(id)) throw notFound('Email address');
  const [row] = await db
    .select()
    .from(businessEmails)
    .where(and(eq(businessEmails.id, id), eq(businessEmails.business_id, a.business_id)));
  if (!row) throw notFound('Email address');
  return row;
}

export async function updateEmail(
  db: Db,
  actor: Actor,
  id: string,
  patch: Partial<EmailInput>,
): Promise<EmailJson> {
  const a = requireOwner(actor, MANAGE_EMAILS);
  return db.transaction(async (tx) => {
    const current = await findEmail(tx, a, id);
    if (Object.keys(patch).length === 0) return toEmailJson(current);
    await assertOwnLocation(tx, a.business_id, patch.location_id);
    const [row] = await tx
      .update(businessEmails)
      .set(patch)
      .where(and(eq(businessEmails.id, current.id), eq(businessEmails.business_id, a.business_id)))
      .returning();
    await audit(tx, a, 'business.email.update', current.id, patch);
    return toEmailJson(row!);
  });
}

export async function deleteEmail(db: Db, actor: Actor, id: string): Promise<{ id: string; deleted: true }> {
  const a = requireOwner(actor, MANAGE_EMAILS);
  return db.transaction(async (tx) => {
    const current = await findEmail(tx, a, id);
    await tx
      .delete(businessEmails)
      .where(and(eq(businessEmails.id, current.id), eq(businessEmails.business_id, a.business_id)));
    await audit(tx, a, 'business.email.delete', current.id, { email: current.email });
    return { id: current.id, deleted: true as const };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Features

export type Features = {
  /** Outbound messages go to the local simulator instead of real providers. */
  sandbox: boolean;
  inbox: boolean;
  locations: boolean;
  subscription_status: SubscriptionStatus;
};

/** What the web app may show for this business; cached per business, dropped whenever the business changes. */
export async function getFeatures(ctx: Ctx, actor: Actor): Promise<Features> {
  const { business_id } = requireBusiness(actor);
  return ctx.cache.remember(business_id, 'features', async () => {
    const [b] = await ctx.db.select().from(businesses).where(eq(businesses.id, business_id));
    if (!b) throw notFound('Business');
    return {
      sandbox: ctx.config.sandbox,
      inbox: true,
      locations: true,
      subscription_status: subscriptionStatus(b),
    };
  });
}

export async function clearCache(ctx: Ctx, actor: Actor): Promise<{ cleared: true }> {
  requireSuperAdmin(actor);
  ctx.cache.clear();
  await audit(ctx.db, actor, 'cache.clear', null);
  return { cleared: true };
}
