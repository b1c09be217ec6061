import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';

export async function uploadBusinessImage(file: File): Promise<unknown> {
  const form = new FormData();
  form.append('image', file);
  const { data } = await api.put<Envelope<unknown>>('/business/mybusinessimage', form);
  return data.body;
}

export function useUploadBusinessImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadBusinessImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
  });
}
