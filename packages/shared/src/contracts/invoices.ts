import { z } from 'zod';
import { isCurrencyCode, MAX_MINOR_UNITS } from '../rules/money.ts';
import { MAX_PAGE_SIZE, pageOf, Timestamp } from './fields.ts';
import { Uuid } from './ids.ts';

export const INVOICE_STATUSES = [
  'draft',
  'sent',
  'viewed',
  'partially_paid',
  'paid',
  'partially_refunded',
  'refunded',
  'void',
  'overdue',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** What people read for each status. */
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  viewed: 'Viewed',
  partially_paid: 'Part paid',
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  void: 'Void',
  overdue: 'Overdue',
};

/** Statuses in which the customer can still pay (the rest, after a part payment). */
export const PAYABLE_INVOICE_STATUSES: readonly InvoiceStatus[] = [
  'sent',
  'viewed',
  'overdue',
  'partially_paid',
];

export const INVOICE_MAX_ITEMS = 100;
/**
 * The largest amount an invoice holds, in minor units: what the database's integer columns take. Every `_cents`
 * field of invoices is in minor units of the invoice's currency (cents, yen, fils), whatever its decimals.
 */
export const INVOICE_MAX_CENTS = MAX_MINOR_UNITS;

/** Fonts shipped with the product for invoices, the pay page and PDFs (no font service is called). */
export const INVOICE_FONTS = [
  { id: 'noto-sans', name: 'Noto Sans', family: 'sans-serif' },
  { id: 'inter', name: 'Inter', family: 'sans-serif' },
  { id: 'lora', name: 'Lora', family: 'serif' },
  { id: 'merriweather', name: 'Merriweather', family: 'serif' },
] as const;
export type InvoiceFontId = (typeof INVOICE_FONTS)[number]['id'];

const decimals = (max: number) => (value: number) =>
  Math.abs(value * 10 ** max - Math.round(value * 10 ** max)) < 1e-6;

const IsoDay = z.iso.date({ message: 'Give the date as YYYY-MM-DD.' });
/** An active ISO 4217 code (any case in, upper case out). */
export const CurrencyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'Give the currency as a three-letter code, e.g. AUD.')
  .transform((v) => v.toUpperCase())
  .superRefine((code, ctx) => {
    if (!isCurrencyCode(code))
      ctx.addIssue({
        code: 'custom',
        message: `${code} is not an ISO 4217 currency code; give one such as AUD, USD, EUR or JPY.`,
      });
  });

export const InvoiceItemInput = z.strictObject({
  description: z.string().trim().min(1, 'Describe each item.').max(500),
  quantity: z
    .number()
    .positive('A quantity is more than 0.')
    .max(1_000_000)
    .refine(decimals(3), 'A quantity has at most three decimals.'),
  /** In the currency's minor units (cents; yen for JPY; fils for KWD). */
  unit_price_cents: z
    .number()
    .int('Give prices in whole minor units of the currency (cents).')
    .min(0)
    .max(INVOICE_MAX_CENTS, `A price is at most ${INVOICE_MAX_CENTS} minor units of its currency.`),
  tax_rate: z.number().min(0).max(100).refine(decimals(2), 'A tax rate has at most two decimals.'),
});
export type InvoiceItemInput = z.infer<typeof InvoiceItemInput>;

const invoiceFields = {
  /** The customer billed; with enquiry_id alone, the enquiry's customer. */
  customer_id: Uuid.optional(),
  /** The conversation the invoice belongs to (and is sent in). */
  enquiry_id: Uuid.optional(),
  location_id: Uuid.nullable().optional(),
  bill_to: z.string().trim().max(200).optional(),
  currency: CurrencyCode.optional(),
  items: z
    .array(InvoiceItemInput)
    .min(1, 'Add at least one item.')
    .max(INVOICE_MAX_ITEMS, `An invoice has at most ${INVOICE_MAX_ITEMS} items.`),
  due_date: IsoDay.nullable().optional(),
  notes: z.string().trim().max(2000).nullable().optional(),
};

/** `POST /business/customer-invoices`: a draft for a customer (or a conversation's customer). */
export const InvoiceRequest = z
  .strictObject(invoiceFields)
  .refine((v) => v.customer_id || v.enquiry_id, 'Say who the invoice is for: customer_id or enquiry_id.');
export type InvoiceRequest = z.input<typeof InvoiceRequest>;

/** `PUT /business/customer-invoices/{id}`: any of the fields, at least one (not the customer). */
export const InvoicePatchRequest = z
  .strictObject({
    location_id: invoiceFields.location_id,
    bill_to: invoiceFields.bill_to,
    currency: invoiceFields.currency,
    items: invoiceFields.items.optional(),
    due_date: invoiceFields.due_date,
    notes: invoiceFields.notes,
  })
  .refine(
    (v) => Object.keys(v).length > 0,
    'Nothing to change: send items, due_date, notes, bill_to or currency.',
  );
export type InvoicePatchRequest = z.input<typeof InvoicePatchRequest>;

/** `POST /business/customer-invoices/{id}/send`: the message that carries the pay link (its own text, or ours). */
export const SendInvoiceRequest = z.strictObject({
  message: z.string().trim().max(1000).optional(),
  close_on_paid: z.boolean().optional(),
});
export type SendInvoiceRequest = z.input<typeof SendInvoiceRequest>;

/** `POST /business/customer-invoices/{id}/refund`: all that is left to refund, or part of it. */
export const RefundInvoiceRequest = z.strictObject({
  amount_cents: z.number().int().positive('A refund is more than 0.').max(INVOICE_MAX_CENTS).optional(),
});

/** Why a payment (or part of it) is not owed, so it is to be refunded. */
export const UNOWED_REASONS = [
  'void',
  'refunded',
  'already_paid',
  'not_sent',
  'other_currency',
  'overpaid',
] as const;
export type UnowedReason = (typeof UNOWED_REASONS)[number];

export const InvoicesQuery = z.strictObject({
  status: z.enum(INVOICE_STATUSES).optional(),
  /** Issued (created) on or after / on or before these days, in the business's timezone. */
  start_date: IsoDay.optional(),
  end_date: IsoDay.optional(),
  customer_id: Uuid.optional(),
  location_id: Uuid.optional(),
  enquiry_id: Uuid.optional(),
  /** Number, who it is for, or an item's description. */
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});
export type InvoicesQuery = z.input<typeof InvoicesQuery>;
/** `GET …/export`: the list's filters, every row. */
export const InvoicesExportQuery = InvoicesQuery.omit({ page: true, page_size: true });

export const InvoiceItem = z.object({
  description: z.string(),
  quantity: z.number(),
  unit_price_cents: z.number(),
  tax_rate: z.number(),
  amount_cents: z.number(),
  tax_cents: z.number(),
});

const amounts = {
  currency: z.string(),
  items: z.array(InvoiceItem),
  subtotal_cents: z.number(),
  tax_cents: z.number(),
  /** The card surcharge's rate in basis points (0: none) and its amount: a disclosed line of its own. */
  surcharge_bps: z.number(),
  surcharge_cents: z.number(),
  total_cents: z.number(),
  amount_paid_cents: z.number(),
  amount_refunded_cents: z.number(),
  /** What is left to pay now (0 once paid, or when it cannot be paid). */
  amount_due_cents: z.number(),
};

/** Money a customer paid that the invoice did not owe, not yet refunded: the owner is to refund it. */
export const NeedsRefund = z.object({
  currency: z.string(),
  amount_cents: z.number(),
  reason: z.enum(UNOWED_REASONS),
  received_at: Timestamp,
});

export const Invoice = z.object({
  id: z.string(),
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  customer_id: z.string().nullable(),
  enquiry_id: z.string().nullable(),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  bill_to: z.string().nullable(),
  ...amounts,
  due_date: z.string().nullable(),
  notes: z.string().nullable(),
  close_on_paid: z.boolean(),
  /** Payments that arrived and are not owed (after voiding, in another currency, more than the total). */
  needs_refund: z.array(NeedsRefund),
  /** The customer's pay page. */
  pay_url: z.string(),
  last_payment_error: z.string().nullable(),
  sent_at: Timestamp.nullable(),
  viewed_at: Timestamp.nullable(),
  paid_at: Timestamp.nullable(),
  voided_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
/** An invoice as the server writes it (Dates) and as a client reads it (ISO text). */
export type InvoiceDto = z.output<typeof Invoice>;
export type InvoiceJson = z.input<typeof Invoice>;
export const InvoicePage = pageOf(Invoice);

/** `GET /business/invoices/secret/{id}`: what the customer's pay page shows, and nothing private. */
export const PublicInvoice = z.object({
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  bill_to: z.string().nullable(),
  ...amounts,
  due_date: z.string().nullable(),
  notes: z.string().nullable(),
  issued_at: Timestamp,
  paid_at: Timestamp.nullable(),
  last_payment_error: z.string().nullable(),
  /** Whether the pay button works now (payable status and payments set up). */
  can_pay: z.boolean(),
  business: z.object({
    name: z.string(),
    location_name: z.string().nullable(),
    address: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
  }),
  branding: z.object({
    logo_url: z.string().nullable(),
    accent_color: z.string(),
    font: z.string(),
    footer: z.string().nullable(),
    payment_terms: z.string().nullable(),
    tax_id: z.string().nullable(),
  }),
  /**
   * How the document reads in the business's country (`taxRulesOf`): its title ("Tax invoice", "VAT invoice",
   * "Invoice"), the tax's name ("GST", "VAT", "Sales tax") and the tax number's ("ABN", "VAT registration number").
   */
  document: z.object({ title: z.string(), tax_name: z.string(), tax_number_label: z.string() }),
  pdf_url: z.string(),
});
export type PublicInvoiceDto = z.output<typeof PublicInvoice>;
export type PublicInvoiceJson = z.input<typeof PublicInvoice>;

/** `POST /business/invoices/secret/{id}/checkout`: where the customer pays. */
export const CheckoutAnswer = z.object({ url: z.string() });

export const SecretParams = z.strictObject({ id: z.string().max(100) });

const HexColour = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Give the colour as #RRGGBB.')
  .transform((v) => v.toUpperCase());

/** `GET /business/customer-invoices/branding`. */
export const InvoiceBranding = z.object({
  /** The business's country: which tax number the invoices show, and how it is checked (`taxRulesOf`). */
  country: z.string().nullable(),
  logo_url: z.string().nullable(),
  accent_color: z.string(),
  font: z.string(),
  footer: z.string().nullable(),
  payment_terms: z.string().nullable(),
  tax_id: z.string().nullable(),
  currency: z.string(),
  number_prefix: z.string(),
  next_number: z.number(),
  reminder_days_before: z.number().nullable(),
  reminder_days_after: z.array(z.number()),
  fonts: z.array(z.object({ id: z.string(), name: z.string(), family: z.string() })),
});
export type InvoiceBrandingDto = z.input<typeof InvoiceBranding>;

const brandingLook = {
  accent_color: HexColour.optional(),
  font: z.enum(INVOICE_FONTS.map((f) => f.id) as [InvoiceFontId, ...InvoiceFontId[]]).optional(),
  footer: z.string().trim().max(500).nullable().optional(),
  payment_terms: z.string().trim().max(500).nullable().optional(),
  tax_id: z.string().trim().max(50).nullable().optional(),
  currency: CurrencyCode.optional(),
  number_prefix: z
    .string()
    .trim()
    .max(12)
    .regex(/^[A-Za-z0-9-/#]*$/, 'A number prefix has letters, digits, - / or # only.')
    .optional(),
};

/** `PUT /business/customer-invoices/branding`: any of the fields, at least one. */
export const InvoiceBrandingRequest = z
  .strictObject({
    ...brandingLook,
    reminder_days_before: z.number().int().min(1).max(60).nullable().optional(),
    reminder_days_after: z
      .array(z.number().int().min(1).max(90))
      .max(3, 'At most three reminders after the due date.')
      .optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change.');
/** `POST /business/customer-invoices/branding/preview`: a sample invoice's PDF in this look (saved or not). */
export const InvoiceBrandingPreviewRequest = z.strictObject(brandingLook);
export type InvoiceBrandingRequest = z.input<typeof InvoiceBrandingRequest>;

/** The business's Stripe account as settings show it. */
export const StripeAccount = z.object({
  /** `stripe`: real payments; `sandbox`: the sandbox payment page; `off`: this server takes no payments. */
  mode: z.enum(['stripe', 'sandbox', 'off']),
  connected: z.boolean(),
  details_submitted: z.boolean(),
  charges_enabled: z.boolean(),
  payouts_enabled: z.boolean(),
});
export type StripeAccountDto = z.input<typeof StripeAccount>;
export const StripeConnectLink = z.object({ url: z.string() });

/** `POST /business/toggle-stripe-charge-rate/{id}`: on/off (flips without a body) and the rate in percent. */
export const SurchargeRequest = z
  .strictObject({
    enabled: z.boolean().optional(),
    rate: z.number().min(0.01).max(10).refine(decimals(2), 'A rate has at most two decimals.').optional(),
  })
  .nullish();
export const LocationSurcharge = z.object({
  location_id: z.string(),
  enabled: z.boolean(),
  rate_bps: z.number(),
});

/** The sandbox checkout page's data and its outcome. */
export const SandboxCheckout = z.object({
  id: z.string(),
  business_name: z.string(),
  number: z.string(),
  currency: z.string(),
  total_cents: z.number(),
  status: z.enum(['open', 'complete']),
});
export const SandboxCheckoutRequest = z.strictObject({ outcome: z.enum(['pay', 'decline']) });
export const SandboxCheckoutAnswer = z.object({ redirect_url: z.string() });
