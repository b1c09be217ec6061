import { api, type Envelope } from '@/lib/api-client.ts';

export type LinkSent = { sent: boolean; already_verified: boolean; email: string | null };

/** A new confirmation link for the signed-in business; it goes to the owner's address. */
export async function resendConfirmationLink(): Promise<LinkSent> {
  const { data } = await api.put<Envelope<LinkSent>>('/business/register/resend-link', {}, { silent: true });
  return data.body;
}
