import type { RegistrationState } from '@switchboard/shared';

/** The Twilio number type searched in each country: Local where local numbers text, else Mobile. */
export const NUMBER_TYPE = { US: 'local', CA: 'local', AU: 'mobile', GB: 'mobile' } as const;
export type NumberCountry = keyof typeof NUMBER_TYPE;

/**
 * What carriers need before a new number of this country may text, as Twilio documents it (docs/decisions.md):
 * US local numbers must be registered for A2P 10DLC (a brand and a campaign), or their texts to US phones are
 * blocked; Canadian local numbers and Australian and British mobile numbers need no registration.
 */
export function initialRegistration(country: string): RegistrationState {
  return country === 'US' ? 'required' : 'not_required';
}

const NOT_REQUIRED: Record<string, string> = {
  CA: 'Canadian local numbers text without registration. (Toll-free numbers would need toll-free verification first.)',
  AU: 'Australian mobile numbers text without registration. Only a business name shown as the sender (an alphanumeric sender ID) must be in the ACMA SMS Sender ID Register; this number texts as itself.',
  GB: 'UK mobile numbers text without registration.',
};

/** What the state means for the owner, and what to do about it. */
export function describeRegistration(
  country: string,
  state: RegistrationState,
): { summary: string; action: string | null } {
  switch (state) {
    case 'not_required':
      return { summary: NOT_REQUIRED[country] ?? 'This number texts without registration.', action: null };
    case 'required':
      return {
        summary:
          'Required — not started. US carriers block texts from local numbers that are not registered for A2P 10DLC; calls and incoming texts work now.',
        action:
          'Register your business (the brand) and how you text customers (the campaign) for A2P 10DLC. Ask whoever runs Switchboard to submit it with Twilio; approval takes days to weeks.',
      };
    case 'pending':
      return {
        summary:
          'A2P 10DLC registration is under review. Texts to US phones may be blocked or filtered until it is approved.',
        action: null,
      };
    case 'approved':
      return { summary: 'Registered with US carriers for A2P 10DLC: texts go through.', action: null };
    case 'rejected':
      return {
        summary: 'US carriers rejected the A2P 10DLC registration: texts to US phones are blocked.',
        action: 'Correct the brand or campaign details and submit the registration again.',
      };
    default: {
      const never: never = state;
      return never;
    }
  }
}
