import { ContactList } from '../Contacts.tsx';
import { FormSection } from '../form/FormSection.tsx';
import type { Chrome, CourseCard, CourseGroup, PageBody, PageModel } from '../model.ts';
import { Picture } from '../Picture.tsx';
import { Price } from '../Price.tsx';
import { T } from '../Text.tsx';

type Ui = Chrome['ui'];
type HomeBody = Extract<PageBody, { kind: 'home' }>;

export function Home({ page, body }: { page: PageModel; body: HomeBody }) {
  const { ui } = page.chrome;
  return (
    <>
      <section className="hero">
        <T value={ui['home.heroTitle']} as="h1" />
        <T value={ui['home.heroText']} as="p" />
        <CourseIndex groups={body.courseGroups} ui={ui} />
        {body.photo ? <Picture picture={body.photo} className="home-photo" /> : null}
      </section>
      <Courses groups={body.courseGroups} ui={ui} />
      <Offers banners={body.banners} ui={ui} />
      <section id="contacts" aria-labelledby="contacts-title">
        <h2 id="contacts-title">
          <T value={ui['home.contactTitle']} />
        </h2>
        <T value={ui['home.contactText']} as="p" />
        <ContactList contacts={page.chrome.contacts} ui={ui} />
      </section>
      {page.form ? <FormSection form={page.form} heading={page.form.labels.title} /> : null}
    </>
  );
}

function Offers({ banners, ui }: { banners: HomeBody['banners']; ui: Ui }) {
  return (
    <section id="offers" aria-labelledby="offers-title">
      <h2 id="offers-title">
        <T value={ui['home.offersTitle']} />
      </h2>
      <ul className="banners">
        {banners.map((b) => (
          <li key={b.id} className="banner">
            {b.image ? <Picture picture={b.image} className="photo" /> : null}
            <p className="pill">
              <T value={b.pill} />
              {b.isNew ? (
                <>
                  {' '}
                  <T value={ui['home.newBadge']} className="badge" />
                </>
              ) : null}
            </p>
            <T value={b.title} as="h3" />
            <T value={b.subtitle} as="p" />
            <a className="button" href={b.cta.href}>
              <T value={b.cta.label} />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Links to the groups of courses, at the top of the page: one tap to the courses for a child's age, without JavaScript. */
function CourseIndex({ groups, ui }: { groups: CourseGroup[]; ui: Ui }) {
  return (
    <nav className="course-index" aria-label={ui['home.coursesIndex'].text}>
      <ul>
        {groups.map((g) => (
          <li key={g.id}>
            <a href={`#courses-${g.id}`}>
              <T value={g.title} />
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Courses({ groups, ui }: { groups: CourseGroup[]; ui: Ui }) {
  return (
    <section id="courses" aria-labelledby="courses-title">
      <h2 id="courses-title">
        <T value={ui['home.offeringsTitle']} />
      </h2>
      {groups.map((g) => (
        <section key={g.id} id={`courses-${g.id}`} aria-labelledby={`courses-${g.id}-title`} className="course-group">
          <h3 id={`courses-${g.id}-title`}>
            <T value={g.title} />
          </h3>
          <ul className="cards">
            {g.courses.map((c) => (
              <CourseCardItem key={c.key} course={c} ui={ui} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

function CourseCardItem({ course: c, ui }: { course: CourseCard; ui: Ui }) {
  return (
    <li className="card">
      {c.image ? <Picture picture={c.image} className="photo" /> : null}
      <T value={c.title} as="h4" />
      <p className="age">
        <T value={c.age} />
      </p>
      <T value={c.summary} as="p" />
      {c.price ? (
        <p>
          <Price price={c.price} />
        </p>
      ) : null}
      <p className="card-actions">
        {/* A course without a page of its own is chosen in this page's form (templates/form/client.ts). */}
        <a className="button" href={c.href ? `${c.href}#enquiry` : '#enquiry'} data-course={c.href ? undefined : c.formValue}>
          <T value={ui['course.signUp']} />
          <span className="visually-hidden">: {c.title.text}</span>
        </a>
        {c.href ? (
          <a className="more" href={c.href}>
            <T value={ui['course.moreDetails']} /> <span aria-hidden="true">→</span>
            <span className="visually-hidden">: {c.title.text}</span>
          </a>
        ) : null}
      </p>
    </li>
  );
}
