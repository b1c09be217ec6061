import type { UpdateMeRequest, UserMe } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from './api-client.ts';
import { sharedQueryKeys } from './query-keys.ts';

/**
 * Changes the signed-in person's own settings (`PATCH /user/me`); the answer becomes the app's copy of them.
 * `silent`: the screen says what went wrong itself. `onSaved` runs after each change is kept.
 */
export function useUpdateMe(options: { silent?: boolean; onSaved?: (me: UserMe) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: UpdateMeRequest) =>
      (await api.patch<Envelope<UserMe>>('/user/me', patch, { silent: options.silent === true })).data.body,
    onSuccess: (me) => {
      queryClient.setQueryData(sharedQueryKeys.me, me);
      options.onSaved?.(me);
    },
  });
}
