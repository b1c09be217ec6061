import {
  formatRate,
  INVOICE_FONTS,
  INVOICE_STATUS_LABELS,
  type PublicInvoiceJson,
} from '@switchboard/shared';
import type { CSSProperties, ReactNode } from 'react';
import './invoice-document.css';
import { moneyText } from '@/lib/money.ts';

/** The shipped font's family for CSS, served by this server (no font service). */
export function fontFace(id: string): string {
  return `@font-face{font-family:"sb-${id}";src:url(/api/v1/public/fonts/${id}/regular.ttf) format("truetype");font-weight:400;font-display:swap}@font-face{font-family:"sb-${id}";src:url(/api/v1/public/fonts/${id}/bold.ttf) format("truetype");font-weight:700;font-display:swap}`;
}

const dayOf = (value: string) =>
  new Intl.DateTimeFormat('en-AU', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(value.length === 10 ? `${value}T00:00:00Z` : value));

/**
 * An invoice as the customer sees it, in the business's branding: logo, accent colour and font, the lines and
 * totals (a card surcharge as its own line with its rate), notes, terms and footer. `children` is what goes
 * under the totals (the pay button). The pay page and the branding preview draw the same thing.
 */
export function InvoiceDocument({ invoice, children }: { invoice: PublicInvoiceJson; children?: ReactNode }) {
  const { branding, business } = invoice;
  const font = INVOICE_FONTS.find((f) => f.id === branding.font) ?? INVOICE_FONTS[0];
  const money = (cents: number) => moneyText(cents, invoice.currency);
  const style = {
    '--inv-accent': branding.accent_color,
    fontFamily: `"sb-${font.id}", ${font.family}`,
  } as CSSProperties;
  const stamp = ['partially_paid', 'paid', 'void', 'refunded', 'partially_refunded'].includes(invoice.status)
    ? INVOICE_STATUS_LABELS[invoice.status]
    : null;
  return (
    <article className="invdoc" style={style} aria-label={`${invoice.document.title} ${invoice.number}`}>
      <style>{fontFace(font.id)}</style>
      <header className="invdoc-head">
        {branding.logo_url ? (
          <img className="invdoc-logo" src={branding.logo_url} alt={business.name} />
        ) : (
          <div className="invdoc-name">{business.name}</div>
        )}
        <div className="invdoc-meta">
          <div className="invdoc-title">{invoice.document.title}</div>
          <div>{invoice.number}</div>
          <div className="invdoc-muted">Issued {dayOf(String(invoice.issued_at))}</div>
          {invoice.due_date && <div className="invdoc-muted">Due {dayOf(invoice.due_date)}</div>}
          {stamp && <div className="invdoc-stamp">{stamp}</div>}
        </div>
      </header>
      <section className="invdoc-parties">
        <div>
          <div className="invdoc-label">From</div>
          <div className="invdoc-strong">{business.name}</div>
          {[business.location_name, business.address, business.phone, business.email]
            .filter(Boolean)
            .map((line) => (
              <div key={line} className="invdoc-muted">
                {line}
              </div>
            ))}
          {branding.tax_id && (
            <div className="invdoc-muted">
              {invoice.document.tax_number_label} {branding.tax_id}
            </div>
          )}
        </div>
        <div>
          <div className="invdoc-label">Bill to</div>
          <div>{invoice.bill_to ?? '—'}</div>
        </div>
      </section>
      <table className="invdoc-items">
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col">Qty</th>
            <th scope="col">Price</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {invoice.items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and never reorder on this page.
            <tr key={i}>
              <td>
                {item.description}
                {item.quantity !== 1 && <span className="invdoc-qty-inline"> × {item.quantity}</span>}
                {item.tax_rate > 0 && (
                  <span className="invdoc-muted">
                    {' '}
                    · {invoice.document.tax_name} {item.tax_rate}%
                  </span>
                )}
              </td>
              <td>{item.quantity}</td>
              <td>{money(item.unit_price_cents)}</td>
              <td>{money(item.amount_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="invdoc-totals">
        <dt>Subtotal</dt>
        <dd>{money(invoice.subtotal_cents)}</dd>
        <dt>{invoice.document.tax_name}</dt>
        <dd>{money(invoice.tax_cents)}</dd>
        {invoice.surcharge_cents > 0 && (
          <>
            <dt>Card surcharge ({formatRate(invoice.surcharge_bps)})</dt>
            <dd>{money(invoice.surcharge_cents)}</dd>
          </>
        )}
        <dt className="invdoc-total">Total</dt>
        <dd className="invdoc-total">{money(invoice.total_cents)}</dd>
        {invoice.amount_paid_cents > 0 && (
          <>
            <dt>Paid</dt>
            <dd>{money(invoice.amount_paid_cents)}</dd>
          </>
        )}
        {invoice.amount_refunded_cents > 0 && (
          <>
            <dt>Refunded</dt>
            <dd>{money(invoice.amount_refunded_cents)}</dd>
          </>
        )}
        {invoice.amount_paid_cents > 0 && invoice.amount_due_cents > 0 && (
          <>
            <dt className="invdoc-total">Left to pay</dt>
            <dd className="invdoc-total">{money(invoice.amount_due_cents)}</dd>
          </>
        )}
      </dl>
      {invoice.surcharge_cents > 0 && (
        <p className="invdoc-muted invdoc-small">
          A card surcharge of {formatRate(invoice.surcharge_bps)} applies to payments by card.
        </p>
      )}
      {children}
      {invoice.notes && <p className="invdoc-notes">{invoice.notes}</p>}
      {branding.payment_terms && <p className="invdoc-muted">{branding.payment_terms}</p>}
      {branding.footer && <footer className="invdoc-footer">{branding.footer}</footer>}
    </article>
  );
}
