import type { Config } from '../config.ts';

export type CspDirectives = Record<string, string[]>;

/**
 * The web app's Content-Security-Policy: scripts only from this server (and the configured marketing
 * loader), no inline scripts or event-handler attributes, no plugins, connections only back to this server.
 * An injected `<script>` or `onerror=` therefore does not run, and the browser reports the attempt.
 */
export function appCsp(
  config: Pick<Config, 'publicUrl' | 'marketingScriptUrl'>,
  reportUri: string,
): CspDirectives {
  const publicUrl = new URL(config.publicUrl);
  const socketOrigin = `${publicUrl.protocol === 'https:' ? 'wss:' : 'ws:'}//${publicUrl.host}`;
  const marketing = config.marketingScriptUrl ? [new URL(config.marketingScriptUrl).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...marketing],
    'script-src-attr': ["'none'"],
    // antd writes its styles at run time (see the report-only policy for the stricter variant).
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'media-src': ["'self'", 'blob:'],
    'connect-src': ["'self'", socketOrigin, ...marketing],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'"],
    ...(publicUrl.protocol === 'https:' ? { 'upgrade-insecure-requests': [] } : {}),
    'report-uri': [reportUri],
  };
}

/** The stricter policy the app is moving to, sent report-only: styles without 'unsafe-inline'. */
export function reportOnlyCsp(enforced: CspDirectives): CspDirectives {
  return { ...enforced, 'style-src': ["'self'"] };
}

export function cspHeader(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}
