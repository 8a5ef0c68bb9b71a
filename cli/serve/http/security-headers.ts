import { CSP } from '../../../templates/csp.ts';

/**
 * The site's policy headers: the pages' Content-Security-Policy plus what a meta tag cannot say.
 * `content serve` sends them on every answer, and the build writes them into `_headers` for
 * static hosts that read that file (cli/write/host-files.ts); docs/deploy.md gives them to nginx.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': `${CSP}; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/**
 * HSTS, sent only on an answer that went out over HTTPS (the trusted proxy's X-Forwarded-Proto):
 * a browser ignores it over plain HTTP anyway. Sent by the server rather than added in the
 * Caddyfile, so that it holds behind any proxy that says X-Forwarded-Proto (nginx too). A year;
 * without includeSubDomains, as the studio's domain may have other hosts (a webmail, a shop)
 * that this site cannot vouch for.
 */
export const HSTS = 'max-age=31536000';
