/**
 * The features an administrator can turn off (or back on) for one business, with what each covers. A flag not
 * set for a business has its default. The web app hides what is off; the server refuses its routes.
 */
export const FEATURE_FLAGS = {
  invoices: { label: 'Invoices and card payments', default: true },
  reviews: { label: 'Review requests', default: true },
  assistant: { label: 'AI assistant', default: true },
  calls: { label: 'Phone calls in the browser', default: true },
} as const;

export type FeatureFlag = keyof typeof FEATURE_FLAGS;
export const FEATURE_FLAG_NAMES = Object.keys(FEATURE_FLAGS) as FeatureFlag[];

/** Every flag's value for a business: its own setting, else the default. */
export function featureFlags(set: Record<string, boolean> | null | undefined): Record<FeatureFlag, boolean> {
  const out = {} as Record<FeatureFlag, boolean>;
  for (const name of FEATURE_FLAG_NAMES) out[name] = set?.[name] ?? FEATURE_FLAGS[name].default;
  return out;
}
