import { HTTP_TIMEOUT_MS } from '@switchboard/shared';
import type {
  AxiosError,
  AxiosInstance,
  AxiosRequestConfig,
  AxiosResponse,
  InternalAxiosRequestConfig,
} from 'axios';
import { ApiError } from './api-error.ts';
import { getAccessToken, removeCookies, setAccessToken } from './cookies.ts';
import { decideErrorAction, type ErrorFacts } from './error-catalogue.ts';
import { navigateTo } from './navigation.ts';
import { notify } from './notifier.ts';
import { reportError } from './report-error.ts';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The caller expects this call may fail and ignores it: no notice, no redirect (still reported). */
    silent?: boolean;
    /** Statuses the caller shows in its own UI (the login form shows 401 and 429 beside the form). */
    handledStatuses?: readonly number[];
  }
}

/** Success bodies: `{ body }`. */
export type Envelope<T> = { body: T };
/** List bodies. */
export type Page<T> = { items: T[]; page: number; page_size: number; total: number };

/**
 * One client per API base, all sharing the same interceptor chain so every failure follows the error
 * catalogue. Only v1 exists on the server today; a v2, files, AI or analytics base is one more entry here
 * (with its own timeout, e.g. AI_TIMEOUT_MS).
 */
export const API_BASES = { v1: { baseURL: '/api/v1', timeout: HTTP_TIMEOUT_MS } } as const;
export type ApiBase = keyof typeof API_BASES;

// ---------------------------------------------------------------------------------------------------------
// Interceptors (spec §7 and §8)

function attachBearer(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const token = getAccessToken();
  if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
}

/** The server renews the sliding session with a `refresh-token` header; it replaces the access cookie. */
function adoptRefreshedToken(response: AxiosResponse | undefined): void {
  const token = response?.headers?.['refresh-token'];
  if (typeof token === 'string' && token) setAccessToken(token);
}

function transportOf(error: AxiosError): ErrorFacts['transport'] {
  if (error.code === 'ERR_CANCELED' || error.name === 'CanceledError') return 'canceled';
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT' || /timeout/i.test(error.message)) {
    return 'timeout';
  }
  if (error.code === 'ERR_NETWORK' || error.message === 'Network Error') return 'network';
  return undefined;
}

function factsOf(error: AxiosError): ErrorFacts {
  const response = error.response;
  if (!response) return { transport: transportOf(error) };
  const data = response.data as { message?: unknown; code?: unknown; fields?: unknown } | undefined;
  const requestId = response.headers?.['request-id'];
  return {
    status: response.status,
    message: typeof data?.message === 'string' ? data.message : undefined,
    code: typeof data?.code === 'string' ? data.code : undefined,
    requestId: typeof requestId === 'string' ? requestId : null,
    fields: fieldsOf(data?.fields),
  };
}

/** The body's `fields`, keeping only text messages: a body from something other than our server may differ. */
function fieldsOf(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length ? Object.fromEntries(entries) : undefined;
}

function handleFailure(error: AxiosError): Promise<never> {
  adoptRefreshedToken(error.response);
  const facts = factsOf(error);
  const action = decideErrorAction(facts);
  const config = error.config;
  const handledByCaller =
    config?.silent === true ||
    (facts.status !== undefined && config?.handledStatuses?.includes(facts.status));

  if (action.report) reportError(error, { ...facts, url: config?.url, method: config?.method });
  if (!handledByCaller) {
    if (action.clearCookies.length > 0) removeCookies(action.clearCookies);
    if (action.notice) notify.error(action.notice);
    if (action.redirectTo && window.location.pathname !== action.redirectTo) navigateTo(action.redirectTo);
  }
  return Promise.reject(
    new ApiError({
      ...facts,
      message: facts.message ?? error.message,
      notified: !handledByCaller && action.notice !== null,
      response: error.response,
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------
// The client family

type Clients = Record<ApiBase, AxiosInstance>;
let clients: Promise<Clients> | null = null;

/**
 * axios is fetched on the first call (or when `preloadApiClient` warms it after the first paint) rather
 * than before the login page can paint: it is a tenth of that page's JS budget (DESIGN §10).
 */
function loadClients(): Promise<Clients> {
  clients ??= import('axios').then(({ default: axios }) => {
    const create = ({ baseURL, timeout }: (typeof API_BASES)[ApiBase]) => {
      const client = axios.create({ baseURL, timeout });
      client.interceptors.request.use(attachBearer);
      client.interceptors.response.use((response) => {
        adoptRefreshedToken(response);
        return response;
      }, handleFailure);
      return client;
    };
    return { v1: create(API_BASES.v1) };
  });
  return clients;
}

export function preloadApiClient(): void {
  void loadClients();
}

export type ApiClient = {
  get<T>(url: string, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  delete<T>(url: string, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  post<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  put<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  patch<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
};

function clientFor(base: ApiBase): ApiClient {
  const client = () => loadClients().then((all) => all[base]);
  return {
    get: (url, config) => client().then((c) => c.get(url, config)),
    delete: (url, config) => client().then((c) => c.delete(url, config)),
    post: (url, data, config) => client().then((c) => c.post(url, data, config)),
    put: (url, data, config) => client().then((c) => c.put(url, data, config)),
    patch: (url, data, config) => client().then((c) => c.patch(url, data, config)),
  };
}

export const apiClients: Readonly<Record<ApiBase, ApiClient>> = { v1: clientFor('v1') };

/** The v1 client, which every call on the server today goes through. */
export const api = apiClients.v1;
