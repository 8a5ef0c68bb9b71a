// Text and URLs as React 19's server renderer writes them (react-dom-server-legacy:
// escapeTextForBrowser, sanitizeURL). Not cli/util/escape.ts: React writes ' as &#x27;.

/** A value as text in element content or in a quoted attribute: `'' + value`, with & < > " ' escaped (as React's escapeTextForBrowser). */
export function escapeText(value: unknown): string {
  const text = typeof value === 'string' ? value : `${value}`;
  let i = 0;
  // Most texts have nothing to escape: found without building anything.
  while (i < text.length && entityOf(text.charCodeAt(i)) === undefined) i++;
  if (i === text.length) return text;
  let html = text.slice(0, i);
  let last = i;
  for (; i < text.length; i++) {
    const entity = entityOf(text.charCodeAt(i));
    if (entity === undefined) continue;
    if (last !== i) html += text.slice(last, i);
    last = i + 1;
    html += entity;
  }
  return last !== text.length ? html + text.slice(last) : html;
}

function entityOf(code: number): string | undefined {
  switch (code) {
    case 34:
      return '&quot;';
    case 38:
      return '&amp;';
    case 39:
      return '&#x27;';
    case 60:
      return '&lt;';
    case 62:
      return '&gt;';
    default:
      return undefined;
  }
}

const JAVASCRIPT_URL = /^[\u0000-\u001F ]*j[\r\n\t]*a[\r\n\t]*v[\r\n\t]*a[\r\n\t]*s[\r\n\t]*c[\r\n\t]*r[\r\n\t]*i[\r\n\t]*p[\r\n\t]*t[\r\n\t]*:/i;

/** A javascript: URL replaced by one that throws, as React does for href, src, action and formAction. */
export const sanitizeUrl = (url: string): string =>
  JAVASCRIPT_URL.test(url) ? "javascript:throw new Error('React has blocked a javascript: URL as a security precaution.')" : url;
