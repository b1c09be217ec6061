import { businesses, type DbOrTx, uploads } from '@switchboard/db';
import {
  type Business,
  type Features as FeaturesSchema,
  featureFlags,
  formatFileSize,
  isUuid,
  subscriptionStatus,
  type UpdateBusinessRequest,
} from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import {
  deleteUpload,
  deleteUploadFile,
  findUpload,
  publicImagePath,
  saveUpload,
  uploadIdOfImage,
} from '../../lib/storage.ts';
import { type Actor, requireBusiness, requireOwner, requireSuperAdmin } from '../../plugins/auth.ts';

export type Ctx = Pick<Context, 'db' | 'config' | 'cache' | 'actor'>;

type BusinessRow = typeof businesses.$inferSelect;

export type BusinessJson = z.output<typeof Business>;

export type BusinessPatch = z.output<typeof UpdateBusinessRequest>;

/** The calendar day it is now in the time zone, as 'YYYY-MM-DD'. */
function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * Messages the business has sent today, in its own day: the counter belongs to the day in messages_count_day,
 * and once that day is over nothing has been sent today.
 */
export function messagesSentToday(
  b: Pick<BusinessRow, 'messages_count_day' | 'messages_sent_today' | 'timezone'>,
  now = new Date(),
): number {
  const countsToday = !b.messages_count_day || b.messages_count_day === dayIn(b.timezone, now);
  return countsToday ? b.messages_sent_today : 0;
}

export function toBusinessJson(b: BusinessRow, now = new Date()): BusinessJson {
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
    messages_sent_today: messagesSentToday(b, now),
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

export async function updateBusiness({ actor, ...ctx }: Ctx, patch: BusinessPatch): Promise<BusinessJson> {
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

/** The picture types a business logo or a person's avatar may be (read from the bytes). */
export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
]);

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
  { actor, ...ctx }: Ctx,
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

export async function clearBusinessImage({ actor, ...ctx }: Ctx): Promise<BusinessJson> {
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
// Features

export type Features = z.output<typeof FeaturesSchema>;

/** What the web app may show for this business; cached per business, dropped whenever the business changes. */
export async function getFeatures({ actor, ...ctx }: Ctx): Promise<Features> {
  const { business_id } = requireBusiness(actor);
  return ctx.cache.remember(business_id, 'features', async () => {
    const [b] = await ctx.db.select().from(businesses).where(eq(businesses.id, business_id));
    if (!b) throw notFound('Business');
    return {
      sandbox: ctx.config.sandbox,
      inbox: true,
      locations: true,
      subscription_status: subscriptionStatus(b),
      flags: featureFlags(b.feature_flags),
    };
  });
}

export async function clearCache({ actor, ...ctx }: Ctx): Promise<{ cleared: true }> {
  requireSuperAdmin(actor);
  ctx.cache.clear();
  await audit(ctx.db, actor, 'cache.clear', null);
  return { cleared: true };
}
