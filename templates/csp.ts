/**
 * The pages' Content-Security-Policy: no inline script, nothing from elsewhere. Pages carry it
 * in a meta tag (for any static host); `content serve` also sends it as a header.
 */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self' https:; base-uri 'self'; object-src 'none'";
