import type { FormInstance } from 'antd';
import { useCallback, useState } from 'react';
import { isApiError } from './api-error.ts';

type NamePath = string | number | readonly (string | number)[];

/**
 * Where a field the server names sits in the form, when the form calls it something else: a server path
 * (`items.0.unit_price_cents`) to the form's name path (an array, or dotted text), or a function for whole
 * families of fields (null: not on this form).
 */
export type FieldNames = Readonly<Record<string, NamePath>> | ((serverPath: string) => NamePath | null);

/** `items.0.quantity` → ['items', 0, 'quantity'], as antd names a field inside a Form.List. */
function namePathOf(serverPath: string): (string | number)[] {
  return serverPath.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** A name given as text is read as a dotted path, like the server's (`items.0.price`). */
function asList(name: NamePath): (string | number)[] {
  if (Array.isArray(name)) return [...name];
  return typeof name === 'string' ? namePathOf(name) : [name as number];
}

function formNameOf(serverPath: string, names: FieldNames | undefined): (string | number)[] | null {
  if (typeof names === 'function') {
    const mapped = names(serverPath);
    return mapped === null ? null : asList(mapped);
  }
  const mapped = names?.[serverPath];
  return asList(mapped ?? namePathOf(serverPath));
}

const keyOf = (name: readonly (string | number)[]) => JSON.stringify(name.map(String));

/**
 * Shows each field the server refused under that field of the form (antd's own error line), in the server's
 * words. Answers true when every refused field found its place, so the caller shows no general message;
 * false when there was nothing to place or something could not be placed (the caller then shows the whole
 * message, as before).
 */
export function showFieldErrors(form: FormInstance, error: unknown, names?: FieldNames): boolean {
  if (!isApiError(error) || !error.fields) return false;
  const mounted = new Set(form.getFieldsError().map((f) => keyOf(f.name)));
  const placed: { name: (string | number)[]; errors: string[] }[] = [];
  let missed = false;
  for (const [serverPath, text] of Object.entries(error.fields)) {
    const name = formNameOf(serverPath, names);
    if (name && mounted.has(keyOf(name))) placed.push({ name, errors: [text] });
    else missed = true;
  }
  const [first] = placed;
  if (first) {
    form.setFields(placed);
    form.scrollToField(first.name, { block: 'center' });
  }
  return placed.length > 0 && !missed;
}

/**
 * For a form whose request's error is shown beside it (`{save.isError && …}`): pass `onError` to the request,
 * and show the general message only while `unplaced(save.error)`, so a refusal already shown under its
 * fields is not said twice.
 */
export function useFieldErrors(form: FormInstance, names?: FieldNames) {
  const [placed, setPlaced] = useState<unknown>(null);
  const onError = useCallback(
    (error: unknown) => setPlaced(showFieldErrors(form, error, names) ? error : null),
    [form, names],
  );
  const unplaced = useCallback((error: unknown) => error !== placed, [placed]);
  return { onError, unplaced };
}
