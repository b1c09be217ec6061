/** The business's own phone numbers and email addresses, each optionally tied to one location. */
export type ContactKind = 'phone' | 'email';

export type BusinessPhone = { id: string; label: string | null; phone: string; location_id: string | null };
export type BusinessEmail = { id: string; label: string | null; email: string; location_id: string | null };

export type ContactRecord<K extends ContactKind> = K extends 'phone' ? BusinessPhone : BusinessEmail;

export type ContactInput<K extends ContactKind> = K extends 'phone'
  ? { label: string | null; phone: string; location_id: string | null }
  : { label: string | null; email: string; location_id: string | null };

export const contactPath = (kind: ContactKind) => `/business/mybusiness/${kind}`;
