import { businesses, invoiceBranding, uploads } from '@switchboard/db';
import {
  INVOICE_FONTS,
  type InvoiceBrandingDto,
  type InvoiceBrandingPreviewRequest,
  type InvoiceBrandingRequest,
  isUuid,
  PublicInvoice,
  sampleInvoice,
  taxRulesOf,
} from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { appErrorOf, IsolatedWorkError, isolated } from '../../lib/isolated-work.ts';
import {
  deleteUploadFile,
  findUpload,
  publicImagePath,
  saveUpload,
  uploadIdOfImage,
} from '../../lib/storage.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { imageTooLarge } from '../businesses/service.ts';
import type { LogoType } from './logo-image.ts';
import { renderPdf } from './pdf.ts';
import { brandingOf } from './service.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'config' | 'log'>;
type BrandingRow = typeof invoiceBranding.$inferSelect;

/** A logo goes into PDFs too, which take PNG and JPEG only. */
const LOGO_TYPES = new Set<string>(['image/png', 'image/jpeg'] satisfies LogoType[]);
const LOGO_CHECK = new URL('./logo-image.ts', import.meta.url);

const unreadableLogo = () =>
  new AppError(
    'unprocessable',
    'The logo could not be read: the image is damaged or incomplete. Save it again as PNG or JPEG and upload it.',
  );

/** Decodes the whole logo in the isolated worker, so a damaged one is refused before any PDF needs it. */
async function checkLogoIsolated(ctx: Pick<Ctx, 'config'>, type: LogoType, bytes: Buffer) {
  try {
    await isolated.run({
      module: LOGO_CHECK,
      fn: 'checkLogo',
      input: { type, bytes: new Uint8Array(bytes) },
      timeoutMs: ctx.config.readTimeoutMs,
    });
  } catch (error) {
    const refusal = appErrorOf(error);
    if (refusal) throw refusal;
    if (error instanceof IsolatedWorkError && error.reason === 'busy')
      throw new AppError('rate_limited', 'Too many files are being read right now. Try again in a minute.', {
        headers: { 'retry-after': '60' },
      });
    throw unreadableLogo();
  }
}

export function toBrandingDto(row: BrandingRow, country: string | null): InvoiceBrandingDto {
  return {
    country,
    logo_url: row.logo,
    accent_color: row.accent_color,
    font: row.font,
    footer: row.footer,
    payment_terms: row.payment_terms,
    tax_id: row.tax_id,
    currency: row.currency,
    number_prefix: row.number_prefix,
    next_number: row.next_number,
    reminder_days_before: row.reminder_days_before,
    reminder_days_after: row.reminder_days_after,
    fonts: INVOICE_FONTS.map((f) => ({ ...f })),
  };
}

/** The business's country, which decides what its invoices are called and which tax number they show. */
async function countryOf(db: Ctx['db'], businessId: string): Promise<string | null> {
  const [row] = await db
    .select({ country: businesses.country })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  return row?.country ?? null;
}

/**
 * The tax registration number in its country's form (an ABN with its check digits, a UK VAT number, a New
 * Zealand GST number), or a 400 naming the field; empty means none.
 */
function checkedTaxNumber(
  value: string | null | undefined,
  country: string | null,
): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (value.trim() === '') return null;
  const checked = taxRulesOf(country).check(value);
  if (!checked.ok) throw new AppError('bad_request', checked.message, { details: { field: 'tax_id' } });
  return checked.value;
}

/** `GET /business/customer-invoices/branding`. */
export async function getBranding({ db, actor }: Ctx): Promise<InvoiceBrandingDto> {
  const a = requireBusiness(actor);
  return toBrandingDto(await brandingOf(db, a.business_id), await countryOf(db, a.business_id));
}

/** `PUT /business/customer-invoices/branding`: the owner's choices; the next invoice and every PDF use them. */
export async function updateBranding(
  { db, actor }: Ctx,
  input: z.output<typeof InvoiceBrandingRequest>,
): Promise<InvoiceBrandingDto> {
  const a = requireOwner(actor, 'change invoice branding');
  await brandingOf(db, a.business_id);
  const country = await countryOf(db, a.business_id);
  const taxId = checkedTaxNumber(input.tax_id, country);
  const [row] = await db
    .update(invoiceBranding)
    .set({
      ...input,
      ...(taxId !== undefined ? { tax_id: taxId } : {}),
      ...(input.reminder_days_after
        ? { reminder_days_after: [...new Set(input.reminder_days_after)].sort((x, y) => x - y) }
        : {}),
    })
    .where(eq(invoiceBranding.business_id, a.business_id))
    .returning();
  return toBrandingDto(row!, country);
}

/** `DELETE /business/customer-invoices/branding`: the look back to the defaults (numbering and reminders stay). */
export async function resetBranding(ctx: Ctx): Promise<InvoiceBrandingDto> {
  const a = requireOwner(ctx.actor, 'change invoice branding');
  const current = await brandingOf(ctx.db, a.business_id);
  const [row] = await ctx.db
    .update(invoiceBranding)
    .set({
      logo: null,
      accent_color: '#1E75FF',
      font: 'noto-sans',
      footer: null,
      payment_terms: null,
      tax_id: null,
    })
    .where(eq(invoiceBranding.business_id, a.business_id))
    .returning();
  await dropLogo(ctx, a.business_id, current.logo);
  return toBrandingDto(row!, await countryOf(ctx.db, a.business_id));
}

async function dropLogo(ctx: Ctx, businessId: string, logo: string | null) {
  const id = uploadIdOfImage(logo);
  const upload = id && isUuid(id) ? await findUpload(ctx.db, businessId, id) : undefined;
  if (!upload) return;
  await ctx.db.delete(uploads).where(eq(uploads.id, upload.id));
  await deleteUploadFile(ctx.config, upload).catch(() => {});
}

/** `PUT /business/customer-invoices/branding/icon`: the logo on the pay page and the PDF (PNG or JPEG). */
export async function setBrandingLogo(
  ctx: Ctx,
  file: { name: string; bytes: Buffer },
): Promise<InvoiceBrandingDto> {
  const a = requireOwner(ctx.actor, 'change invoice branding');
  if (file.bytes.length > ctx.config.imageMaxBytes) throw imageTooLarge(ctx.config.imageMaxBytes);
  const sniffed = await fileTypeFromBuffer(file.bytes);
  if (!sniffed || !LOGO_TYPES.has(sniffed.mime))
    throw new AppError(
      'unsupported_media_type',
      'The logo must be a PNG or JPEG file (PDF invoices take no other kind).',
    );
  await checkLogoIsolated(ctx, sniffed.mime as LogoType, file.bytes);
  const current = await brandingOf(ctx.db, a.business_id);
  const upload = await saveUpload(ctx.db, ctx.config, {
    business_id: a.business_id,
    user_id: a.user_id,
    name: file.name,
    content_type: sniffed.mime,
    bytes: file.bytes,
  });
  const [row] = await ctx.db
    .update(invoiceBranding)
    .set({ logo: publicImagePath(upload.id) })
    .where(eq(invoiceBranding.business_id, a.business_id))
    .returning();
  await dropLogo(ctx, a.business_id, current.logo);
  return toBrandingDto(row!, await countryOf(ctx.db, a.business_id));
}

/**
 * `POST /business/customer-invoices/branding/preview`: a sample invoice as a PDF in the look being edited (the
 * saved branding, with what the form has changed), so the owner sees the PDF before saving.
 */
export async function brandingPreviewPdf(
  ctx: Ctx,
  look: z.output<typeof InvoiceBrandingPreviewRequest>,
): Promise<Buffer> {
  const a = requireBusiness(ctx.actor);
  const saved = await brandingOf(ctx.db, a.business_id);
  const [business] = await ctx.db
    .select({ name: businesses.name, country: businesses.country })
    .from(businesses)
    .where(eq(businesses.id, a.business_id));
  const country = business?.country ?? null;
  const taxId = checkedTaxNumber(look.tax_id, country);
  const page = sampleInvoice(
    { ...toBrandingDto(saved, country), ...look, ...(taxId !== undefined ? { tax_id: taxId } : {}) },
    business?.name ?? '',
    country,
  );
  return renderPdf(ctx, PublicInvoice.parse(page), `${ctx.config.publicUrl}/pay/…`);
}
