import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export type DailyUsage = { messages_sent_today: number; message_limit: number; remaining: number };

export const dailyUsageKey = ['daily-usage'] as const;

/** Today's messages against the business's daily limit; read again after each send. */
export function useDailyUsage() {
  return useQuery({
    queryKey: dailyUsageKey,
    queryFn: async () =>
      (await api.get<Envelope<DailyUsage>>('/business/mybusiness/usage', { silent: true })).data.body,
    staleTime: 60_000,
  });
}
