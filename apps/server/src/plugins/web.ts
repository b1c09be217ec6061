import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

const API_PREFIXES = ['/api/', '/webhooks/', '/socket.io/'];

/**
 * Serves the built web app. Unknown paths under /api and /webhooks are JSON 404s; every other GET that
 * wants HTML gets index.html so the browser router can take it (SPA fallback).
 */
export const webPlugin = fp(async (app: FastifyInstance, options: { reportOnlyCsp?: string } = {}) => {
  const dist = app.config.webDist;
  const indexFile = join(dist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      setHeaders: (res, path) => {
        // Vite's hashed assets never change; index.html must always be fetched fresh.
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker is checked for a new version on every visit.
        else if (path.endsWith('/sw.js')) res.header('cache-control', 'no-cache');
      },
    });
  }
  const indexHtml = () => readFileSync(indexFile, 'utf8');

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((p) => path.startsWith(p) || `${path}/` === p)) {
      throw new AppError('not_found', `No route ${request.method} ${path}.`);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new AppError('not_found', `No route ${request.method} ${path}.`);
    }
    if (!hasWeb) {
      throw new AppError(
        'not_found',
        'The web app is not built. Run `npm run build` (npm start does this for you).',
      );
    }
    if (options.reportOnlyCsp) reply.header('content-security-policy-report-only', options.reportOnlyCsp);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml());
  });
});
