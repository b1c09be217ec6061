import { useCallback, useState } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import {
  CREDENTIAL_COOKIES,
  loginCookieWrites,
  readCookie,
  removeCookies,
  SELECTION_COOKIES,
  selectionCookieWrites,
  writeCookies,
} from '@/lib/cookies.ts';
import type { LoginResult, Me } from '../types.ts';
import { currentSelection, selectionCookies } from '../utils/selection.ts';

export type LoginInput = { email: string; password: string };

/** Wrong credentials (401) and too many attempts (429) are shown on the form itself, not as notices. */
export const LOGIN_FORM_STATUSES = [401, 429] as const;

export async function login(input: LoginInput): Promise<LoginResult> {
  // The last business and location used in this browser are asked for again (spec §7: BID/LID headers).
  const headers: Record<string, string> = {};
  const bid = readCookie(SELECTION_COOKIES.business);
  const lid = readCookie(SELECTION_COOKIES.location);
  if (bid) headers.BID = bid;
  if (lid) headers.LID = lid;
  const { data } = await api.post<Envelope<LoginResult>>('/auth/login', input, {
    headers,
    handledStatuses: LOGIN_FORM_STATUSES,
  });
  return data.body;
}

/**
 * Spec §4 "Login": store the credentials, load the user into the query cache and select the business and
 * location (the app layout builds the session id as it opens). A user with no business never gets this
 * far: GET /user/me answers 'no_business', which clears the tokens again and stays on '/'.
 */
async function logIn(input: LoginInput): Promise<Me> {
  // The query layer is not part of the login page's first paint (DESIGN §10); it is usually already
  // loaded by the time someone submits, since the login page preloads the app while they type.
  const [{ queryClient }, { getMeQueryOptions }] = await Promise.all([
    import('@/lib/query-client.ts'),
    import('./get-me.ts'),
  ]);
  queryClient.clear();
  writeCookies(loginCookieWrites(await login(input)));
  const me = await queryClient.fetchQuery(getMeQueryOptions());
  const selection = currentSelection(me);
  if (!selection) {
    removeCookies(CREDENTIAL_COOKIES);
    throw new Error('Your account is not linked to any business. Ask the business owner to invite you.');
  }
  writeCookies(selectionCookieWrites(selectionCookies(selection)));
  return me;
}

type LoginState = { pending: boolean; error: unknown };

/**
 * Plain React state rather than useMutation, so the login page paints without TanStack Query; the user
 * it loads still lands in the query cache.
 */
export function useLogin() {
  const [state, setState] = useState<LoginState>({ pending: false, error: null });
  const submit = useCallback(async (input: LoginInput): Promise<Me | null> => {
    setState({ pending: true, error: null });
    try {
      const me = await logIn(input);
      setState({ pending: false, error: null });
      return me;
    } catch (error) {
      setState({ pending: false, error });
      return null;
    }
  }, []);
  const reset = useCallback(() => setState((s) => (s.error ? { pending: false, error: null } : s)), []);
  return { ...state, submit, reset };
}
