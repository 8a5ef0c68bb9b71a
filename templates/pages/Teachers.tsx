import type { Chrome, PageBody, PageModel, TeacherModel } from '../model.ts';
import { Picture } from '../Picture.tsx';
import { T, Texts } from '../Text.tsx';

export function Teachers({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'teachers' }> }) {
  return (
    <>
      <T value={page.title} as="h1" />
      <ul className="cards">
        {body.teachers.map((t) => (
          <Teacher key={t.key} teacher={t} ui={page.chrome.ui} />
        ))}
      </ul>
    </>
  );
}

function Teacher({ teacher: t, ui }: { teacher: TeacherModel; ui: Chrome['ui'] }) {
  return (
    <li className="card">
      {t.image ? <Picture picture={t.image} className="portrait" /> : null}
      <T value={t.name} as="h2" />
      <T value={t.role} as="p" className="age" />
      <p>
        <T value={ui['teachers.education']} as="strong" />: <T value={t.edu} />
      </p>
      <T value={t.text1} as="p" rich />
      <T value={t.text2} as="p" rich />
      <Texts values={t.extra} as="p" rich />
      {t.quote ? <T value={t.quote} as="blockquote" /> : null}
      {t.courses.length ? (
        <p>
          <T value={ui['teachers.courses']} />:{' '}
          {t.courses.map((c, i) => (
            <span key={c.href}>
              {i ? ', ' : ''}
              <a href={c.href}>
                <T value={c.label} />
              </a>
            </span>
          ))}
        </p>
      ) : null}
    </li>
  );
}
