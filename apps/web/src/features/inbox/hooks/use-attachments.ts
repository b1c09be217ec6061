import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadFailure, uploadFile } from '../api/upload-file.ts';
import type { Attachment } from '../types.ts';
import { newClientId } from '../utils/client-id.ts';

export const MAX_ATTACHMENTS = 10;

/** One file of the reply: uploading (with progress), failed (with the reason, to retry) or done. */
export type AttachmentItem =
  | { key: string; state: 'uploading'; name: string; size: number; progress: number; file: File }
  | { key: string; state: 'failed'; name: string; size: number; error: string; file: File }
  | { key: string; state: 'done'; name: string; size: number; attachment: Attachment };

/**
 * The reply's files: any number added at once (picked, dropped or pasted) upload in parallel, each with its
 * own progress, removable at any time (an upload under way is cancelled), a failure kept beside its file
 * with the reason and a retry. Each stored attachment is held once, whatever was retried.
 */
export function useAttachments(onChange: () => void) {
  const [items, setState] = useState<AttachmentItem[]>([]);
  // The list as of the last change, read by handlers that run before React re-renders (several files at once).
  const current = useRef<AttachmentItem[]>([]);
  const setItems = useCallback((next: (all: AttachmentItem[]) => AttachmentItem[]) => {
    current.current = next(current.current);
    setState(current.current);
  }, []);
  const uploads = useRef(new Map<string, AbortController>());

  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  const start = useCallback(
    (key: string, file: File) => {
      const controller = new AbortController();
      uploads.current.set(key, controller);
      const update = (next: (item: AttachmentItem) => AttachmentItem) =>
        setItems((all) => all.map((item) => (item.key === key ? next(item) : item)));
      uploadFile(file, {
        signal: controller.signal,
        onProgress: (progress) =>
          update((item) => (item.state === 'uploading' ? { ...item, progress } : item)),
      })
        .then((attachment) => {
          setItems((all) =>
            all
              .filter(
                (item) => item.key === key || item.state !== 'done' || item.attachment.id !== attachment.id,
              )
              .map((item) =>
                item.key === key
                  ? { key, state: 'done', name: item.name, size: item.size, attachment }
                  : item,
              ),
          );
          onChange();
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          update((item) => ({
            key,
            state: 'failed',
            name: item.name,
            size: item.size,
            error: uploadFailure(error),
            file,
          }));
        })
        .finally(() => uploads.current.delete(key));
    },
    [onChange, setItems],
  );

  /** Adds files; past the limit they are refused, and the answer says how many were left out. */
  const add = useCallback(
    (files: File[]): number => {
      const accepted = files.slice(0, Math.max(0, MAX_ATTACHMENTS - current.current.length));
      const added = accepted.map((file) => ({ key: newClientId(), file }));
      setItems((all) => [
        ...all,
        ...added.map(
          ({ key, file }): AttachmentItem => ({
            key,
            state: 'uploading',
            name: file.name || 'pasted-image.png',
            size: file.size,
            progress: 0,
            file,
          }),
        ),
      ]);
      for (const { key, file } of added) start(key, file);
      return files.length - accepted.length;
    },
    [start, setItems],
  );

  const remove = useCallback(
    (key: string) => {
      uploads.current.get(key)?.abort();
      uploads.current.delete(key);
      setItems((all) => all.filter((item) => item.key !== key));
      onChange();
    },
    [onChange, setItems],
  );

  const retry = useCallback(
    (key: string) => {
      const item = current.current.find((i) => i.key === key);
      if (item?.state !== 'failed') return;
      setItems((all) =>
        all.map((i) =>
          i.key === key
            ? { key, state: 'uploading', name: i.name, size: i.size, progress: 0, file: item.file }
            : i,
        ),
      );
      start(key, item.file);
    },
    [start, setItems],
  );

  /** Replaces everything with stored attachments (a restored draft, or what a refused send gave back). */
  const reset = useCallback(
    (attachments: Attachment[]) => {
      for (const controller of uploads.current.values()) controller.abort();
      uploads.current.clear();
      setItems(() =>
        attachments.map(
          (attachment): AttachmentItem => ({
            key: attachment.id,
            state: 'done',
            name: attachment.name,
            size: attachment.size,
            attachment,
          }),
        ),
      );
    },
    [setItems],
  );

  const done = items.flatMap((item) => (item.state === 'done' ? [item.attachment] : []));
  return {
    items,
    attachments: done,
    uploading: items.some((item) => item.state === 'uploading'),
    failed: items.some((item) => item.state === 'failed'),
    add,
    remove,
    retry,
    reset,
  };
}
