import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** Meta batches up to 1000 updates in one delivery. */
export const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

export const badSignature = () =>
  new AppError('forbidden', 'The webhook signature is missing or does not match.');
export const malformed = (what: string) => new AppError('bad_request', `Malformed ${what} webhook.`);

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body exactly as it arrived: signatures are computed over these bytes. */
export function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

export function jsonBody(request: FastifyRequest, what: string): unknown {
  try {
    return JSON.parse(rawBody(request).toString('utf8'));
  } catch {
    throw malformed(what);
  }
}
