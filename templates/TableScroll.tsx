import type { ReactNode } from 'react';
import type { Text } from './model.ts';

/**
 * A table wider than a phone scrolls inside this box, never the page (a shadow at the edge shows
 * there is more). Focusable and named, so keyboard users can scroll it too.
 */
export function TableScroll({ label, children }: { label: Text; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section className="table-scroll" aria-label={label.text} tabIndex={0}>
      {children}
    </section>
  );
}
