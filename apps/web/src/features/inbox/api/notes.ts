import type { Note } from '@switchboard/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { inboxKeys } from './query-keys.ts';

export function useNotes(enquiryId: string) {
  return useQuery({
    queryKey: inboxKeys.notes(enquiryId),
    queryFn: async ({ signal }) => {
      const { data } = await api.get<Envelope<{ items: Note[] }>>(
        `/enquiries/${encodeURIComponent(enquiryId)}/notes`,
        { signal, handledStatuses: [403, 404] },
      );
      return data.body.items;
    },
    staleTime: 5 * 60_000,
  });
}

/** A note into its thread's cached list, once (from the answer or the socket's echo, whichever comes first). */
export function writeNote(queryClient: QueryClient, note: Note): void {
  queryClient.setQueryData<Note[]>(inboxKeys.notes(note.enquiry_id), (notes) =>
    notes && !notes.some((n) => n.id === note.id) ? [...notes, note] : notes,
  );
}

export function useAddNote(enquiryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { body: string; mentions: string[] }) => {
      const { data } = await api.post<Envelope<Note>>(
        `/enquiries/${encodeURIComponent(enquiryId)}/notes`,
        input,
      );
      return data.body;
    },
    onSuccess: (note) => writeNote(queryClient, note),
  });
}
