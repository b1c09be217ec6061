import { invoices } from '@switchboard/db';
import { and, eq, type SQL } from 'drizzle-orm';
import { AppError } from '../../errors.ts';
import { atTheirLocations, type BusinessActor } from '../../plugins/auth.ts';

/**
 * Whose invoices may be read: a business's (jobs, webhooks and the pay page, which act for nobody), or the person
 * acting, who sees the invoices of the locations they work at. An invoice of no location is the business's as a
 * whole: only those who work at every location see it.
 */
export type InvoiceScope = string | BusinessActor;

/** The one condition every query of invoices for a person or a business goes through. */
export function invoicesTheySee(scope: InvoiceScope): SQL {
  if (typeof scope === 'string') return eq(invoices.business_id, scope);
  return and(eq(invoices.business_id, scope.business_id), atTheirLocations(scope, invoices.location_id))!;
}

/**
 * Where a new invoice is when its writer names no location: its conversation's, else for a staff member limited
 * to some locations their selected one (an invoice of no location would vanish from their own list).
 */
export function defaultInvoiceLocation(
  a: BusinessActor,
  enquiryLocationId: string | undefined,
): string | null {
  return enquiryLocationId ?? (a.location_ids ? a.location_id : null);
}

/** A staff member limited to some locations cannot take an invoice out of every location they work at. */
export function assertInvoiceLocationFor(a: BusinessActor, locationId: string | null): void {
  if (!locationId && a.location_ids)
    throw new AppError(
      'unprocessable',
      'An invoice of no location is seen only by those who work at every location. Choose one of your locations.',
    );
}
