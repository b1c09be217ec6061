import { useMutation } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { isApiError } from '@/lib/api-error.ts';
import { notify } from '@/lib/notifier.ts';
import type { Attachment } from '../types.ts';

/** POST /uploads: one file for a message; its id goes with the message, its url shows it. */
export async function uploadFile(file: File): Promise<Attachment> {
  const form = new FormData();
  form.append('file', file, file.name);
  // 413 (too large) carries a message written for people; the catalogue would call it a server fault.
  const { data } = await api.post<Envelope<Attachment>>('/uploads', form, { handledStatuses: [413] });
  return data.body;
}

export function useUploadFile() {
  return useMutation({
    mutationFn: uploadFile,
    onError: (error) => {
      if (isApiError(error) && error.status === 413)
        notify.error({ kind: 'server-message', title: error.message });
    },
  });
}
