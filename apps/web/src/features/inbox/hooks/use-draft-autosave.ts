import { useCallback, useEffect, useRef, useState } from 'react';
import { deleteDraft } from '../api/delete-draft.ts';
import { type DraftInput, saveDraft } from '../api/save-draft.ts';

export type DraftState = 'idle' | 'saving' | 'saved' | 'error';

const SAVE_DELAY_MS = 700;

const isEmpty = (v: DraftInput) => !v.message.trim() && !v.subject?.trim() && v.attachmentIds.length === 0;

/** What a draft holds, as one string: two drafts with the same key save the same thing. */
const keyOf = (v: DraftInput) => `${v.message}\u0000${v.subject ?? ''}\u0000${v.attachmentIds.join(',')}`;

/**
 * Saves what is being written as the enquiry's draft a moment after typing stops (an emptied composer
 * deletes it), one save at a time and in order. Leaving the enquiry saves at once; `settle` cancels the
 * pending save and waits for one in flight, so a send never races a save that would bring the draft back.
 * The state says "saved" only once what is in the composer now is what was saved: from the first change until
 * then it is "saving".
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
        // A newer change waiting or on its way keeps the state at saving; its own save ends it.
        const current = timer.current === undefined && keyOf(latest.current) === keyOf(snapshot);
        if (mounted.current && current) setState(isEmpty(snapshot) ? 'idle' : 'saved');
      } catch {
        if (mounted.current) setState('error');
      }
    });
  }, [enquiryId]);

  const key = keyOf(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the value being saved.
  useEffect(() => {
    if (!edited) return;
    clearTimeout(timer.current);
    setState('saving');
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
