import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { channelsKey } from './get-channels.ts';

type CallingSetUp = { channel_id: string; location_id: string; twiml_app_sid: string; phone_number: string };

/** `POST /channels/{id}/calling`: makes (or finds) what calling needs at Twilio and points the number here. */
export function useSetUpCalling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channelId: string) => {
      const { data } = await api.post<Envelope<CallingSetUp>>(
        `/channels/${encodeURIComponent(channelId)}/calling`,
        undefined,
        // Twilio's refusal (a number of another account, bad credentials) is said beside the button.
        { handledStatuses: [422, 502, 503] },
      );
      return data.body;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}
