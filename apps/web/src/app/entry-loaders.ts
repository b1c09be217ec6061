/** The chunks the first screen may need: the login page, the public contact page, and the signed-in app. */
export const entryLoaders = {
  login: () => import('./routes/login.tsx'),
  contact: () => import('./routes/contact.tsx'),
  pay: () => import('./routes/pay.tsx'),
  sandboxCheckout: () => import('./routes/sandbox-checkout.tsx'),
  // The app layout with the signed-in route table (and through it, every signed-in page).
  signedIn: () => import('./signed-in-routes.tsx'),
  inbox: () => import('./routes/inbox.tsx'),
} as const;

/** Warms the app's chunks while the person types their password, so logging in feels instant. */
export function preloadApp(): void {
  void entryLoaders.signedIn();
  void entryLoaders.inbox();
}
