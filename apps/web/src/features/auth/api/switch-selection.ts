import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { cookieWrite, SELECTION_COOKIES, setAccessToken, writeCookies } from '@/lib/cookies.ts';

export type SwitchInput = { business_id: string; location_id?: string };

export async function switchSelection(input: SwitchInput): Promise<{ token: string }> {
  const { data } = await api.put<Envelope<{ token: string }>>('/user/switch', input);
  return data.body;
}

/** A new token for the chosen business and location; every cached query belonged to the old one. */
export function useSwitchSelection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchSelection,
    onSuccess: async ({ token }, input) => {
      setAccessToken(token);
      writeCookies([
        cookieWrite(SELECTION_COOKIES.business, input.business_id),
        ...(input.location_id ? [cookieWrite(SELECTION_COOKIES.location, input.location_id)] : []),
      ]);
      await queryClient.invalidateQueries();
    },
  });
}
