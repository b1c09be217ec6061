import { useCallback, useEffect, useState } from 'react';

/** How long a page stays idle before an add/edit form's chunk is fetched, so the first click opens it at once. */
const PRELOAD_AFTER_MS = 2000;

/**
 * An add/edit modal loaded on demand: the record it edits (null for a new one), whether it is open, and
 * whether it was ever opened (render the lazy modal only then, so its chunk is not fetched up front).
 * With `preload`, the chunk is fetched once the page has been idle a moment, when `enabled`.
 */
export function useFormModal<T>(preload?: () => Promise<unknown>, enabled = true) {
  const [editing, setEditing] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);

  useEffect(() => {
    if (!preload || !enabled) return;
    const timer = window.setTimeout(() => void preload(), PRELOAD_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [preload, enabled]);

  const show = useCallback((record: T | null) => {
    setEditing(record);
    setOpen(true);
    setUsed(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);

  return { editing, open, used, show, close };
}
