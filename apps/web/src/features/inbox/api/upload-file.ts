import { api, type Envelope } from '@/lib/api-client.ts';
import { failureText } from '@/lib/failure-text.ts';
import type { Attachment } from '../types.ts';

/**
 * POST /uploads: one file for a message; its id goes with the message, its url shows it. Progress is reported
 * as a fraction from 0 to 1. The failure is shown beside the file by the caller, so no notice is raised here.
 */
export async function uploadFile(
  file: File,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<Attachment> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { data } = await api.post<Envelope<Attachment>>('/uploads', form, {
    silent: true,
    signal,
    onUploadProgress: (e) => onProgress?.(e.total ? Math.min(1, e.loaded / e.total) : 0),
  });
  return data.body;
}

/** Why a file did not upload, in words for the person beside it. */
export function uploadFailure(error: unknown): string {
  return `Not uploaded: ${failureText(error)}`;
}
