import { isTransientStatus, jsonOf, providerFetch } from '../../lib/provider-http.ts';
import { explainMetaError, isTransientMetaError } from './errors.ts';

export type GraphTarget = { base: string; timeoutMs: number; token: string };

/**
 * The Graph API as a connected Meta account calls it: Messenger with its Page access token, WhatsApp and
 * Instagram with their access token.
 */
export function graphTargetOf(
  providers: { graphApiBase: string; timeoutMs: number },
  config: { access_token?: string; page_access_token?: string },
): GraphTarget {
  return {
    base: providers.graphApiBase,
    timeoutMs: providers.timeoutMs,
    token: config.page_access_token ?? config.access_token ?? '',
  };
}

type GraphErrorBody = {
  error?: {
    message?: string;
    code?: number;
    error_subcode?: number;
    is_transient?: boolean;
    error_data?: { details?: string };
  };
};

/** A Graph API answer other than 2xx, explained in plain English, and whether trying again may help. */
export class GraphApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly subcode: number | null;
  /** Meta's own words, for telling apart refusals that share a code (e.g. a wrong `appsecret_proof`). */
  readonly detail: string | null;
  readonly transient: boolean;
  constructor(status: number, body: GraphErrorBody | undefined) {
    const e = body?.error;
    const code = e?.code === undefined ? null : String(e.code);
    super(
      explainMetaError(
        code,
        e?.error_subcode,
        e?.error_data?.details ?? e?.message ?? `Meta answered ${status}.`,
      ),
    );
    this.status = status;
    this.code = code;
    this.subcode = e?.error_subcode ?? null;
    this.detail = e?.message ?? null;
    this.transient = isTransientStatus(status) || isTransientMetaError(code, e?.is_transient);
  }
}

/** One Graph API call with the account's token as a Bearer header. */
export async function graphApi<T>(
  target: GraphTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const url = /^https?:\/\//.test(path) ? path : `${target.base}${path}`;
  const res = await providerFetch('Meta', url, {
    method,
    timeoutMs: target.timeoutMs,
    headers: {
      authorization: `Bearer ${target.token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await jsonOf(res);
  if (!res.ok) throw new GraphApiError(res.status, json as GraphErrorBody | undefined);
  return json as T;
}
