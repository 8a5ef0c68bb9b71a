import type { PageBody, PageModel } from '../model.ts';
import { T, Texts } from '../Text.tsx';

export function Faq({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'faq' }> }) {
  return (
    <>
      <T value={page.title} as="h1" />
      <T value={page.chrome.ui['faq.intro']} as="p" />
      {body.items.map((q) => (
        <section key={q.id} id={q.id} className="faq-item" aria-labelledby={`q-${q.id}`}>
          <T value={q.question} as="h2" id={`q-${q.id}`} />
          <Texts values={q.answer} as="p" rich />
        </section>
      ))}
    </>
  );
}
