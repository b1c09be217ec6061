import { useCallback, useEffect, useRef, useState } from 'react';
import { deleteDraft } from '../api/delete-draft.ts';
import { type DraftInput, saveDraft } from '../api/save-draft.ts';

export type DraftState = 'idle' | 'saving' | 'saved' | 'error';

const SAVE_DELAY_MS = 700;

const isEmpty = (v: DraftInput) => !v.message.trim() && !v.subject?.trim() && v.attachmentIds.length === 0;

/**
 * Saves what is being written as the enquiry's draft a moment after typing stops (an emptied composer
 * deletes it), one save at a time and in order. Leaving the enquiry saves at once; `settle` cancels the
 * pending save and waits for one in flight, so a send never races a save that would bring the draft back.
 */
export function useDraftAutosave(enquiryId: string, value: DraftInput, edited: boolean) {
  const [state, setState] = useState<DraftState>('idle');
  const latest = useRef(value);
  latest.current = value;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const mounted = useRef(true);

  const persist = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const snapshot = latest.current;
    if (mounted.current) setState('saving');
    chain.current = chain.current.then(async () => {
      try {
        if (isEmpty(snapshot)) await deleteDraft(enquiryId);
        else await saveDraft(enquiryId, snapshot);
        if (mounted.current) setState(isEmpty(snapshot) ? 'idle' : 'saved');
      } catch {
        if (mounted.current) setState('error');
      }
    });
  }, [enquiryId]);

  const key = `${value.message}\u0000${value.subject ?? ''}\u0000${value.attachmentIds.join(',')}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the value being saved.
  useEffect(() => {
    if (!edited) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(persist, SAVE_DELAY_MS);
  }, [key, edited, persist]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current !== undefined) persist();
    };
  }, [persist]);

  const settle = useCallback(async () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    await chain.current;
  }, []);

  const reset = useCallback(() => setState('idle'), []);

  return { state, settle, reset };
}
