import type { PageModel } from '../model.ts';
import { Course } from './Course.tsx';
import { Faq } from './Faq.tsx';
import { Home } from './Home.tsx';
import { Legal } from './Legal.tsx';
import { NotFound } from './NotFound.tsx';
import { Prices } from './Prices.tsx';
import { Schedule } from './Schedule.tsx';
import { Teachers } from './Teachers.tsx';
import { Thanks } from './Thanks.tsx';

/** What a page shows inside <main>: one component per kind of page. */
export function PageContent({ page }: { page: PageModel }) {
  const body = page.body;
  switch (body.kind) {
    case 'home':
      return <Home page={page} body={body} />;
    case 'course':
      return <Course page={page} course={body.course} />;
    case 'prices':
      return <Prices page={page} body={body} />;
    case 'teachers':
      return <Teachers page={page} body={body} />;
    case 'faq':
      return <Faq page={page} body={body} />;
    case 'schedule':
      return <Schedule page={page} body={body} />;
    case 'legal':
      return <Legal page={page} body={body} />;
    case 'thanks':
      return <Thanks page={page} />;
    case 'notFound':
      return <NotFound page={page} body={body} />;
    default:
      return noComponentFor(body);
  }
}

/**
 * A kind of page without a component: TypeScript rejects the call above as soon as a kind is
 * added to PageBody and not to the switch (`body` is no longer `never` there), and a model
 * that gets past the types anyway fails the build rather than rendering an empty page.
 */
function noComponentFor(body: never): never {
  throw new Error(`no component renders pages of kind ${JSON.stringify((body as { kind?: unknown }).kind)}`);
}
