/**
 * The pages' Content-Security-Policy: no inline script, nothing from elsewhere. Inline style is
 * allowed: every page carries the site's stylesheet in a <style> (cli/render/client-assets.ts),
 * and no page writes a visitor's text into a style. Pages carry it
 * in a meta tag (for any static host); `content serve` also sends it as a header.
 */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self' https:; base-uri 'self'; object-src 'none'";
