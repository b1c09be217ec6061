import type { SubscriptionView } from '@switchboard/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { useSocket } from '@/lib/use-socket.ts';

export type { SubscriptionView };
export type PaidPlan = 'monthly' | 'annual';

export type LinkSent = { sent: boolean; already_verified: boolean; email: string | null };

export const subscriptionKeys = {
  view: ['subscription'] as const,
};

/** A new confirmation link for the signed-in business; it goes to the owner's address. */
export async function resendConfirmationLink(): Promise<LinkSent> {
  const { data } = await api.put<Envelope<LinkSent>>('/business/register/resend-link', {}, { silent: true });
  return data.body;
}

export function useSubscription() {
  const queryClient = useQueryClient();
  const { socket } = useSocket();
  // A webhook (a payment, a failure, a cancellation) changes it while the page is open.
  useEffect(() => {
    if (!socket) return;
    const onChanged = () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.view });
    socket.on('account.changed', onChanged);
    return () => {
      socket.off('account.changed', onChanged);
    };
  }, [socket, queryClient]);
  return useQuery({
    queryKey: subscriptionKeys.view,
    queryFn: async () =>
      (await api.get<Envelope<SubscriptionView>>('/business/mybusiness/subscription')).data.body,
  });
}

export type PromoCheck = {
  code: string;
  description: string;
  currency: string;
  price_cents: number;
  first_payment_cents: number;
  plan: PaidPlan;
};

/** Inline errors (a wrong code, too many tries) are shown beside the box, not as notices. */
export async function checkPromoCode(code: string, plan: PaidPlan): Promise<PromoCheck> {
  const { data } = await api.put<Envelope<PromoCheck>>(
    '/business/mybusiness/validate-promo-code',
    { code, plan },
    { silent: true },
  );
  return data.body;
}

export async function choosePlan(
  plan: PaidPlan,
  promotionCode: string | null,
): Promise<{ kind: string; url: string }> {
  const { data } = await api.put<Envelope<{ kind: string; url: string }>>(
    '/business/mybusiness/change-subscription-plan',
    { plan, promotion_code: promotionCode },
    { silent: true },
  );
  return data.body;
}

export async function openBillingPortal(): Promise<string> {
  const { data } = await api.post<Envelope<{ url: string }>>(
    '/business/mybusiness/billing-portal',
    undefined,
    {
      silent: true,
    },
  );
  return data.body.url;
}

export type SandboxPortalAction = 'cancel' | 'resume' | 'fail_payment' | 'pay' | 'end';

export async function sandboxPortal(action: SandboxPortalAction): Promise<SubscriptionView> {
  const { data } = await api.post<Envelope<SubscriptionView>>(
    '/sandbox/billing-portal',
    { action },
    { silent: true },
  );
  return data.body;
}
