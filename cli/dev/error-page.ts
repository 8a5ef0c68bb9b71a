import { codeFrame } from '../report/code-frame.ts';
import type { Problem } from '../report/problem.ts';
import { escapeHtml } from '../util/escape.ts';

const esc = escapeHtml;

/**
 * What the preview shows while the content has errors: every problem with its place and a code
 * frame. `prefix` is the content directory as the editor gave it (`--content`), so the path is the real one.
 */
export function errorPage(problems: Problem[], sources: Map<string, string>, prefix = 'content/'): string {
  const errors = problems.filter((p) => p.severity === 'error');
  const items = errors
    .map((p) => {
      const text = sources.get(p.file);
      const frame = text && p.line ? `<pre>${esc(codeFrame(text, p.line, p.column ?? 1, p.endLine === p.line ? p.endColumn : undefined))}</pre>` : '';
      return `<li><p><strong>${esc(prefix)}${esc(p.file)}${p.line ? `:${p.line}:${p.column ?? 1}` : ''}</strong> — ${esc(p.message)}</p>${
        p.expected ? `<p>Expected: ${esc(p.expected)}</p>` : ''
      }${p.found ? `<p>Found: ${esc(p.found)}</p>` : ''}${frame}${p.hint ? `<p>Hint: ${esc(p.hint)}</p>` : ''}</li>`;
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Content has errors</title></head>
<body><div id="app"><main class="dev-errors"><h1>The content has ${errors.length} error${errors.length === 1 ? '' : 's'}</h1>
<p>Fix them and save: this page reloads by itself.</p><ol>${items}</ol></main></div></body></html>`;
}
