import type { FastifyRequest } from 'fastify';

/** A query value kept in logs: ids and plain numbers (page sizes, flags), never free text. */
const SAFE_VALUE =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{1,6}|true|false|[a-z_]{1,20})$/i;

/**
 * The request URL as logs may keep it: the path, and each query parameter with its value only when it is an id,
 * a number or a keyword. A search for a customer's name or number, an email address or a token becomes `…`.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  const kept = [...query].map(([key, value]) => `${key}=${SAFE_VALUE.test(value) ? value : '…'}`);
  return `${url.slice(0, at)}?${kept.join('&')}`;
}

/** What a request log line says about the request: no client address, no query text, no headers. */
export function requestLogFields(request: FastifyRequest) {
  return { method: request.method, url: loggableUrl(request.url), route: request.routeOptions?.url };
}
