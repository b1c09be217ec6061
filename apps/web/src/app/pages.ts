import { paths } from './paths.ts';

/**
 * Every signed-in screen's chunk, by path: the signed-in route table renders them lazily and the app
 * preloads them. Loaded with that table, not with the login page (each dynamic import carries the list of
 * its chunk's files, which would otherwise weigh on the login page).
 */
export const pageLoaders = {
  [paths.inbox]: () => import('./routes/inbox.tsx'),
  [paths.customers]: () => import('./routes/customers.tsx'),
  [paths.locations]: () => import('./routes/locations.tsx'),
  [paths.businessSettings]: () => import('./routes/business-settings.tsx'),
  [paths.setup]: () => import('./routes/setup.tsx'),
  [paths.contacts]: () => import('./routes/contacts.tsx'),
  [paths.channels]: () => import('./routes/channels.tsx'),
  [paths.widget]: () => import('./routes/widget.tsx'),
  [paths.templates]: () => import('./routes/templates.tsx'),
  [paths.labels]: () => import('./routes/labels.tsx'),
  [paths.assistant]: () => import('./routes/assistant.tsx'),
  [paths.invoices]: () => import('./routes/invoices.tsx'),
  [paths.reviews]: () => import('./routes/reviews.tsx'),
  [paths.payments]: () => import('./routes/payments.tsx'),
  [paths.subscription]: () => import('./routes/subscription.tsx'),
  [paths.team]: () => import('./routes/team.tsx'),
  [paths.notifications]: () => import('./routes/notifications.tsx'),
  [paths.analytics]: () => import('./routes/analytics.tsx'),
  [paths.admin]: () => import('./routes/admin.tsx'),
  [paths.auditLog]: () => import('./routes/audit-log.tsx'),
  [paths.sandboxBillingPortal]: () => import('./routes/sandbox-billing-portal.tsx'),
  [paths.profile]: () => import('./routes/profile.tsx'),
  [paths.sandbox]: () => import('./routes/sandbox.tsx'),
} as const;

type PagePath =
  | typeof paths.inbox
  | typeof paths.customers
  | typeof paths.locations
  | typeof paths.businessSettings
  | typeof paths.setup
  | typeof paths.contacts
  | typeof paths.channels
  | typeof paths.widget
  | typeof paths.templates
  | typeof paths.labels
  | typeof paths.assistant
  | typeof paths.invoices
  | typeof paths.reviews
  | typeof paths.payments
  | typeof paths.subscription
  | typeof paths.team
  | typeof paths.admin
  | typeof paths.auditLog
  | typeof paths.sandboxBillingPortal
  | typeof paths.profile
  | typeof paths.sandbox;

/** Starts downloading a page's chunk, e.g. while the signed-in user is still loading. */
export function preloadPage(pathname: string): void {
  // '/inbox/{enquiry id}' is the inbox page too.
  const page = pathname.startsWith(`${paths.inbox}/`) ? paths.inbox : pathname;
  const loader = pageLoaders[page as PagePath] as (() => Promise<unknown>) | undefined;
  void loader?.();
}
