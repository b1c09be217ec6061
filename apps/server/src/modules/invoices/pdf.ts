/// <reference path="../../types/pdfmake.d.ts" />
import { formatMoney, formatRate, INVOICE_STATUS_LABELS, type InvoiceFontId } from '@switchboard/shared';
import { LRUCache } from 'lru-cache';
import pdfmake, { type Content, type DocumentDefinition } from 'pdfmake';
import type { Deps } from '../../context.ts';
import { findPublicImage, readUpload, uploadIdOfImage } from '../../lib/storage.ts';
import { type FontWeight, fontBytes, isFontId } from './fonts.ts';
import type { PublicInvoiceParts } from './public.ts';
import { formatDay } from './sending.ts';
import { payUrl } from './service.ts';

/** pdfmake's in-memory file system: the only place fonts are read from. */
const vfs = pdfmake.virtualfs;

/** The family non-Latin text falls back to: Noto Sans covers Latin, Cyrillic, Greek and Vietnamese. */
const WIDE = 'noto-sans';

let ready = false;
/** Fonts into pdfmake's own file system, and no other file or URL reachable from a document. */
function setUp() {
  if (ready) return;
  const fonts: Record<string, { normal: string; bold: string; italics: string; bolditalics: string }> = {};
  for (const id of ['noto-sans', 'inter', 'lora', 'merriweather'] as InvoiceFontId[]) {
    const file = (w: FontWeight) => {
      const name = `fonts/${id}-${w}.ttf`;
      vfs.writeFileSync(name, fontBytes(id, w));
      return name;
    };
    const regular = file('regular');
    const bold = file('bold');
    fonts[id] = { normal: regular, bold, italics: regular, bolditalics: bold };
  }
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  ready = true;
}

/** Text in the chosen font, or in the wide font when it has letters beyond Latin. */
function text(value: string, font: string, extra: Record<string, unknown> = {}): Content {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Latin-1 and Latin Extended are the chosen font's range.
  const wide = /[^\u0000-\u024F\u2000-\u206F\u20A0-\u20CF]/.test(value);
  return { text: value, font: wide ? WIDE : font, ...extra };
}

/** A run of letters this long without a space would not fit the description column, so it may break anywhere. */
const UNBROKEN = /(\S{28,})/;

/**
 * A table cell's text that wraps inside its column: ordinary words break between words, and only a run too long
 * for the column (a part number, a pasted link) breaks between letters, instead of widening the table.
 */
function wrapping(value: string, font: string, extra: Record<string, unknown> = {}): Content {
  const parts = value.split(UNBROKEN).filter((part) => part !== '');
  const inlines = parts.map((part) => (UNBROKEN.test(part) ? { text: part, wordBreak: 'break-all' } : part));
  return { ...(text(value, font, extra) as object), text: inlines } as Content;
}

const cache = new LRUCache<string, Buffer>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (b) => b.length });

/** The PDF's cache key: a new invoice version or new branding makes a new PDF. */
function cacheKey(parts: PublicInvoiceParts): string {
  return `${parts.invoice.id}:v${parts.invoice.version}:${parts.branding.updated_at.getTime()}:${parts.invoice.status}`;
}

type PdfDeps = Pick<Deps, 'db' | 'config' | 'log'>;

/** The stored logo as a data URL, or null when there is none or it cannot be read from storage. */
async function logoDataUrl({ db, config, log }: PdfDeps, logo: string | null): Promise<string | null> {
  const id = uploadIdOfImage(logo);
  if (!id) return null;
  try {
    const upload = await findPublicImage(db, id);
    const bytes = upload ? await readUpload(config, upload) : undefined;
    return bytes && upload ? `data:${upload.content_type};base64,${bytes.toString('base64')}` : null;
  } catch (error) {
    log.warn({ err: error, logo: id }, 'invoice logo could not be read; the PDF is made without it');
    return null;
  }
}

/** The invoice as a PDF (A4), rendered once per version and branding, then served from memory. */
export async function invoicePdf(deps: PdfDeps, parts: PublicInvoiceParts): Promise<Buffer> {
  const key = cacheKey(parts);
  const cached = cache.get(key);
  if (cached) return cached;
  const link = parts.page.can_pay ? payUrl(deps.config.publicUrl, parts.invoice.secret) : null;
  const pdf = await renderPdf(deps, parts.page, link);
  cache.set(key, pdf);
  return pdf;
}

/**
 * Any invoice page as a PDF, uncached (the branding preview's sample). A logo the PDF library cannot draw (one
 * stored before logos were decoded on upload, say a truncated PNG) is left out, with a warning in the log,
 * rather than failing every PDF of the business.
 */
export async function renderPdf(
  deps: PdfDeps,
  page: PublicInvoiceParts['page'],
  payLink: string | null,
): Promise<Buffer> {
  setUp();
  const logo = await logoDataUrl(deps, page.branding.logo_url);
  try {
    return await pdfmake.createPdf(definition(page, payLink, logo)).getBuffer();
  } catch (error) {
    if (!logo) throw error;
    deps.log.warn(
      { err: error, logo: uploadIdOfImage(page.branding.logo_url) },
      'invoice logo could not be drawn; the PDF is made without it',
    );
    return pdfmake.createPdf(definition(page, payLink, null)).getBuffer();
  }
}

/**
 * Light lines between rows, like pdfmake's `lightHorizontalLines`, but with room inside every cell: the first
 * and last columns' text no longer touches the edges of the coloured header.
 */
const lineTable = {
  hLineWidth: (i: number, node: { table: { headerRows?: number; body: unknown[] } }) =>
    i === 0 || i === node.table.body.length ? 0 : i === node.table.headerRows ? 2 : 1,
  vLineWidth: () => 0,
  hLineColor: (i: number) => (i === 1 ? 'black' : '#aaaaaa'),
  paddingLeft: () => 6,
  paddingRight: () => 6,
  paddingTop: () => 3,
  paddingBottom: () => 3,
};

function definition(
  page: PublicInvoiceParts['page'],
  payLink: string | null,
  logo: string | null,
): DocumentDefinition {
  const font = isFontId(page.branding.font) ? page.branding.font : WIDE;
  const accent = page.branding.accent_color;
  const money = (cents: number) => formatMoney(cents, page.currency);
  const contact = [
    page.business.location_name,
    page.business.address,
    page.business.phone,
    page.business.email,
  ]
    .filter((v): v is string => Boolean(v))
    .map((v) => text(v, font, { color: '#555555' }));
  const totals: [string, string, boolean?][] = [
    ['Subtotal', money(page.subtotal_cents)],
    [page.document.tax_name, money(page.tax_cents)],
  ];
  if (page.surcharge_cents > 0)
    totals.push([`Card surcharge (${formatRate(page.surcharge_bps)})`, money(page.surcharge_cents)]);
  totals.push(['Total', money(page.total_cents), true]);
  if (page.amount_paid_cents > 0) totals.push(['Paid', money(page.amount_paid_cents)]);
  if (page.amount_refunded_cents > 0) totals.push(['Refunded', money(page.amount_refunded_cents)]);
  if (page.amount_due_cents > 0) totals.push(['Amount due', money(page.amount_due_cents), true]);
  const stamp = ['partially_paid', 'paid', 'void', 'refunded', 'partially_refunded'].includes(page.status)
    ? INVOICE_STATUS_LABELS[page.status].toUpperCase()
    : null;
  const content: Content[] = [
    {
      columns: [
        logo
          ? { image: 'logo', fit: [140, 60] }
          : text(page.business.name, font, { fontSize: 18, bold: true }),
        {
          stack: [
            { text: page.document.title, font, fontSize: 22, bold: true, color: accent },
            { text: page.number, font, fontSize: 12, margin: [0, 2, 0, 6] },
            {
              text: `Issued ${formatDay(new Date(page.issued_at).toISOString().slice(0, 10))}`,
              font,
              color: '#555555',
            },
            ...(page.due_date ? [{ text: `Due ${formatDay(page.due_date)}`, font, color: '#555555' }] : []),
            ...(stamp
              ? [{ text: stamp, font, bold: true, fontSize: 14, color: accent, margin: [0, 6, 0, 0] }]
              : []),
          ],
          alignment: 'right',
        },
      ],
    },
    {
      columns: [
        {
          stack: [
            text('From', font, { bold: true, color: accent, margin: [0, 0, 0, 2] }),
            text(page.business.name, font, { bold: true }),
            ...contact,
            ...(page.branding.tax_id
              ? [
                  text(`${page.document.tax_number_label} ${page.branding.tax_id}`, font, {
                    color: '#555555',
                  }),
                ]
              : []),
          ],
        },
        {
          stack: [
            text('Bill to', font, { bold: true, color: accent, margin: [0, 0, 0, 2] }),
            text(page.bill_to ?? '—', font),
          ],
        },
      ],
      margin: [0, 24, 0, 18],
    },
    {
      table: {
        headerRows: 1,
        // Fixed widths for the figures, wide enough for their headers and for amounts in the millions:
        // 'auto' columns shrink below their header's width when a description is long, which broke "Amount"
        // inside the word and pushed the table past the right margin. The description takes what is left.
        widths: ['*', 36, 84, 44, 92],
        body: [
          ['Description', 'Qty', 'Unit price', page.document.tax_name, 'Amount'].map((h, i) => ({
            text: h,
            font,
            noWrap: true,
            bold: true,
            color: '#FFFFFF',
            fillColor: accent,
            alignment: i === 0 ? 'left' : 'right',
          })),
          ...page.items.map((item) => [
            wrapping(item.description, font),
            text(String(item.quantity), font, { alignment: 'right' }),
            text(money(item.unit_price_cents), font, { alignment: 'right' }),
            text(item.tax_rate ? `${item.tax_rate}%` : '—', font, { alignment: 'right' }),
            text(money(item.amount_cents), font, { alignment: 'right' }),
          ]),
        ],
      },
      layout: lineTable,
    },
    {
      table: {
        widths: ['*', 'auto'],
        body: totals.map(([label, value, strong]) => [
          text(label, font, { alignment: 'right', bold: Boolean(strong) }),
          text(value, font, { alignment: 'right', bold: Boolean(strong) }),
        ]),
      },
      layout: 'noBorders',
      margin: [200, 12, 0, 12],
    },
  ];
  if (page.notes) content.push(text(page.notes, font, { margin: [0, 8, 0, 0] }));
  if (page.branding.payment_terms)
    content.push(text(page.branding.payment_terms, font, { margin: [0, 8, 0, 0], color: '#555555' }));
  if (payLink)
    content.push(
      text(`Pay online: ${payLink}`, font, {
        margin: [0, 12, 0, 0],
        color: accent,
      }),
    );
  return {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 60],
    info: {
      title: `${page.document.title} ${page.number}`,
      author: page.business.name,
      creator: 'Switchboard',
    },
    defaultStyle: { font, fontSize: 10 },
    ...(logo ? { images: { logo } } : {}),
    content,
    footer: page.branding.footer
      ? {
          ...(text(page.branding.footer, font, {
            alignment: 'center',
            color: '#777777',
            fontSize: 8,
          }) as object),
          margin: [40, 20, 40, 0],
        }
      : undefined,
  } as DocumentDefinition;
}
