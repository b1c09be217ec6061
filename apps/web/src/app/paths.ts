/** Where the browser goes after a 401, a failed login, a user with no business and a log out (spec §2). */
export const LOGIN_PATH = '/';
/** The app's home: the inbox, where signing in lands. */
export const APP_HOME = '/inbox';

export const paths = {
  login: LOGIN_PATH,
  inbox: '/inbox',
  customers: '/customers',
  locations: '/locations',
  businessSettings: '/settings/business',
  /** Settings › Getting started: the set-up checklist. */
  setup: '/settings/setup',
  contacts: '/settings/contacts',
  channels: '/settings/channels',
  widget: '/settings/widget',
  templates: '/settings/templates',
  labels: '/settings/labels',
  assistant: '/settings/assistant',
  profile: '/profile',
  sandbox: '/sandbox',
  invoices: '/invoices',
  reviews: '/reviews',
  payments: '/settings/payments',
  subscription: '/settings/subscription',
  team: '/settings/team',
  notifications: '/settings/notifications',
  analytics: '/analytics',
  /** Super admins: every business of the installation. */
  admin: '/admin',
  /** The owner's audit log. */
  auditLog: '/settings/audit-log',
  /** Sandbox mode's stand-in for Stripe's customer portal. */
  sandboxBillingPortal: '/settings/subscription/sandbox-portal',
  /** The customer's pay page (`/pay/{secret}`): public. */
  pay: '/pay',
  /** Sandbox mode's stand-in for Stripe Checkout: public. */
  sandboxCheckout: '/sandbox/checkout',
  /** Sign-up: a new business and its owner; under it, `/signup/confirm`, the emailed link confirming its email. */
  signup: '/signup',
  /** Forgotten password: the form asking for the email a reset link goes to. */
  forgotPassword: '/forgot-password',
  /** The emailed reset link's page (`/reset-password#token=…`): choose a new password. */
  resetPassword: '/reset-password',
  /** The public hosted contact form: no login, no app chrome. */
  contact: '/contact',
} as const;
