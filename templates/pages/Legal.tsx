import type { PageBody, PageModel } from '../model.ts';
import { T, Texts } from '../Text.tsx';

export function Legal({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'legal' }> }) {
  return (
    <>
      <T value={page.title} as="h1" />
      {body.sections.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: sections in content order, never reordered; a heading is text, not an id
        <section key={i}>
          <T value={s.heading} as="h2" />
          <Texts values={s.body} as="p" rich />
        </section>
      ))}
    </>
  );
}
