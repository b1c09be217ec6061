import { ATTACHMENT_HEAD_BYTES, attachmentRefusal } from '@switchboard/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '@/lib/api-error.ts';
import { uploadFailure, uploadFile } from '../api/upload-file.ts';
import type { Attachment } from '../types.ts';
import { newClientId } from '../utils/client-id.ts';

export const MAX_ATTACHMENTS = 10;

/** Answers to an upload that the same file would get again: too large, a kind not accepted, empty. */
const NEVER_ACCEPTED = [413, 415, 422];

function refused(item: AttachmentItem, reason: string): AttachmentItem {
  return {
    key: item.key,
    state: 'refused',
    name: item.name,
    size: item.size,
    error: `Not attached: ${reason}`,
  };
}

/**
 * One file of the reply: uploading (with progress), failed (with the reason, to retry), refused (it can never
 * be accepted: too large, a kind that cannot be attached, one too many; not sent, not blocking the others)
 * or done.
 */
export type AttachmentItem =
  | { key: string; state: 'uploading'; name: string; size: number; progress: number; file: File }
  | { key: string; state: 'failed'; name: string; size: number; error: string; file: File }
  | { key: string; state: 'refused'; name: string; size: number; error: string }
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
          const never = isApiError(error) && NEVER_ACCEPTED.includes(error.status ?? 0);
          update((item) =>
            never
              ? { key, state: 'refused', name: item.name, size: item.size, error: uploadFailure(error) }
              : { key, state: 'failed', name: item.name, size: item.size, error: uploadFailure(error), file },
          );
        })
        .finally(() => uploads.current.delete(key));
    },
    [onChange, setItems],
  );

  /** A file whose kind its name and type do not tell: its first bytes say whether it is text. */
  const checkThenStart = useCallback(
    async (key: string, file: File) => {
      const head = new Uint8Array(await file.slice(0, ATTACHMENT_HEAD_BYTES).arrayBuffer());
      const refusal = attachmentRefusal(file, head);
      if (!current.current.some((item) => item.key === key)) return;
      if (refusal === null || refusal === 'need-head') return start(key, file);
      setItems((all) => all.map((item) => (item.key === key ? refused(item, refusal) : item)));
    },
    [start, setItems],
  );

  /**
   * Adds files. Each is checked here first, by the same rules the server applies (size, kind), so a file that
   * can never be accepted is refused at once, saying why, without being sent; the others upload.
   */
  const add = useCallback(
    (files: File[]) => {
      let room = MAX_ATTACHMENTS - current.current.filter((item) => item.state !== 'refused').length;
      const added = files.map((file) => {
        const name = file.name || 'pasted-image.png';
        const base = { key: newClientId(), name, size: file.size };
        const check = attachmentRefusal({ name, size: file.size, type: file.type });
        if (typeof check === 'string' && check !== 'need-head')
          return {
            item: { ...base, state: 'refused', error: `Not attached: ${check}` } as AttachmentItem,
            file,
            check,
          };
        if (room <= 0) {
          const error = `Not attached: a reply holds at most ${MAX_ATTACHMENTS} files.`;
          return { item: { ...base, state: 'refused', error } as AttachmentItem, file, check };
        }
        room--;
        return { item: { ...base, state: 'uploading', progress: 0, file } as AttachmentItem, file, check };
      });
      setItems((all) => [...all, ...added.map(({ item }) => item)]);
      for (const { item, file, check } of added) {
        if (item.state !== 'uploading') continue;
        if (check === 'need-head') void checkThenStart(item.key, file);
        else start(item.key, file);
      }
    },
    [start, checkThenStart, setItems],
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
    /** No room for another file. */
    full: items.filter((item) => item.state !== 'refused').length >= MAX_ATTACHMENTS,
    add,
    remove,
    retry,
    reset,
  };
}
