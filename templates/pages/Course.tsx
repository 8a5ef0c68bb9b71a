import type { ReactNode } from 'react';
import { FormSection } from '../form/FormSection.tsx';
import type { Chrome, CourseDetail, PageModel, Text } from '../model.ts';
import { Picture } from '../Picture.tsx';
import { Price } from '../Price.tsx';
import { Aside, Inline, T, Texts } from '../Text.tsx';

type Ui = Chrome['ui'];

export function Course({ page, course }: { page: PageModel; course: CourseDetail }) {
  const { ui } = page.chrome;
  return (
    <article>
      <T value={course.title} as="h1" />
      {course.image ? <Picture picture={course.image} className="page-photo" /> : null}
      <T value={course.summary} as="p" className="lead" rich />
      {course.audience === 'parents' ? <T value={ui['course.forParentsOnly']} as="p" className="notice" /> : null}
      <p>
        <a className="button" href="#enquiry">
          <T value={ui['course.signUp']} />
        </a>
      </p>
      <Facts course={course} ui={ui} />
      <Heading value={course.headings.goal} />
      <T value={course.goal} as="p" rich />
      <Heading value={course.headings.howClassesRun} />
      <T value={course.howClassesRun} as="p" rich />
      <Heading value={ui['course.features']} />
      <ul>
        <Texts values={course.features} as="li" rich />
      </ul>
      <SubPrograms course={course} ui={ui} />
      <Steps course={course} ui={ui} />
      {course.rules.length ? (
        <>
          <Heading value={ui['course.rules']} />
          <ul>
            <Texts values={course.rules} as="li" rich />
          </ul>
        </>
      ) : null}
      <Heading value={course.headings.trial} />
      <T value={course.trial} as="p" rich />
      {page.form ? <FormSection form={page.form} heading={ui['course.signUp']} /> : null}
    </article>
  );
}

function Heading({ value }: { value: Text }) {
  return (
    <h2>
      <T value={value} />
    </h2>
  );
}

/** Age, format, duration, teachers, price and languages, each under its name. */
function Facts({ course, ui }: { course: CourseDetail; ui: Ui }) {
  return (
    <dl className="facts">
      <Fact label={ui['course.age']}>
        <T value={course.age} as="dd" />
      </Fact>
      <Fact label={ui['course.format']}>
        <T value={course.format} as="dd" />
      </Fact>
      <Fact label={ui['course.duration']}>
        <T value={course.duration} as="dd" />
      </Fact>
      <Fact label={course.headings.teacher}>
        <dd>
          {course.teachers.map((t, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: teachers in content order
            <span key={i}>
              {i ? ', ' : null}
              <T value={t.name} />
              <Aside value={t.role} />
            </span>
          ))}
        </dd>
      </Fact>
      {course.price ? (
        <Fact label={ui['course.price']}>
          <dd>
            <Price price={course.price} />
          </dd>
        </Fact>
      ) : null}
      {course.languages ? (
        <Fact label={course.headings.languages}>
          <dd>
            <Inline values={course.languages} />
            <Aside value={course.languagesNote} />
          </dd>
        </Fact>
      ) : null}
    </dl>
  );
}

function Fact({ label, children }: { label: Text; children: ReactNode }) {
  return (
    <div>
      <T value={label} as="dt" />
      {children}
    </div>
  );
}

function SubPrograms({ course, ui }: { course: CourseDetail; ui: Ui }) {
  if (!course.subPrograms.length) return null;
  return (
    <>
      <Heading value={ui['course.subPrograms']} />
      {course.subPrograms.map((s) => (
        <section key={s.key} aria-labelledby={`sub-${s.key}`}>
          <T value={s.title} as="h3" id={`sub-${s.key}`} />
          <T value={s.age} as="p" className="age" />
          <T value={s.text} as="p" rich />
        </section>
      ))}
    </>
  );
}

function Steps({ course, ui }: { course: CourseDetail; ui: Ui }) {
  if (!course.steps.length) return null;
  return (
    <>
      <Heading value={ui['course.steps']} />
      <ol className="steps">
        {course.steps.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps in content order, never reordered
          <li key={i}>
            <T value={s.title} as="strong" />
            {s.text ? <T value={s.text} as="p" rich /> : null}
          </li>
        ))}
      </ol>
    </>
  );
}
