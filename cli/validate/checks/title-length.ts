import { type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import { catalogued, expectedOf, foundOf, hintOf, type Problem } from '../../report/problem.ts';
import type { Check } from './check.ts';
import { problemAtPart } from './text-position.ts';

/**
 * The longest title a page heading and a share card show whole: the card shows about three lines
 * of 20 to 32 letters (cli/images/card-text.ts), and a heading of more is no longer a name.
 */
export const TITLE_MAX = 100;
/**
 * The longest word of a title: a heading on a 320 px phone and a line of the card break a longer
 * one in the middle (and one of tens of thousands of letters takes the card's drawing down).
 * The longest words of the shipped titles have 22 ("Konzentrationstraining").
 */
export const TITLE_WORD_MAX = 30;

/** Where a browser and the card may break a line: spaces, hyphens and dashes, a soft hyphen, a slash, a zero-width space. */
const BREAKS = /[\s\u00ad\u200b/\u2010-\u2015-]+/u;

const length = (text: string) => (text.length > 0 ? [...text].length : 0);

/**
 * Errors at every title a page or a share card shows (a page's title in routes.yaml, a course's
 * title, the studio's name) that is longer than `TITLE_MAX` characters or has a word longer than
 * `TITLE_WORD_MAX`: found here, before anything is drawn, at the word itself.
 */
export const titlesFit: Check = ({ content, courses }) => {
  const problems: Problem[] = [];
  // A title by language ({ ru, en, de }), or one text for every language (the studio's name once it is written in).
  const localized = (source: SourceFile, path: PathPart[], value: unknown, what: string) => {
    const texts: [string | undefined, unknown][] =
      typeof value === 'string' ? [[undefined, value]] : value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
    for (const [key, text] of texts) {
      if (typeof text !== 'string') continue;
      const at = key === undefined ? path : [...path, key];
      const locale = key ?? 'every language';
      const whole = length(text);
      if (whole > TITLE_MAX)
        problems.push(
          problemAt(
            source,
            at,
            catalogued(
              'title-too-long',
              { what, locale, length: whole, max: TITLE_MAX },
              { expected: expectedOf('title-too-long', 'max', { max: TITLE_MAX }), found: foundOf('title-too-long', 'length', { length: whole }) },
            ),
          ),
        );
      const word = text.split(BREAKS).find((w) => w.length > TITLE_WORD_MAX && length(w) > TITLE_WORD_MAX);
      if (word)
        problems.push(
          problemAtPart(
            source,
            at,
            word,
            catalogued(
              'title-too-long',
              { what, locale, length: length(word), max: TITLE_WORD_MAX },
              {
                variant: 'word',
                expected: expectedOf('title-too-long', 'word', { max: TITLE_WORD_MAX }),
                found: foundOf('title-too-long', 'word', { start: [...word].slice(0, 20).join(''), length: length(word) }),
                hint: hintOf('title-too-long', {}, 'word'),
              },
            ),
          ),
        );
    }
  };
  const site = content.site;
  if (site) localized(site.source, ['name'], site.data.name, "studio's name");
  content.routes?.data.routes.forEach((route, i) => {
    localized(content.routes!.source, ['routes', i, 'title'], route.title, `title of the page ${route.path}`);
  });
  for (const course of courses) localized(course.source, ['title'], course.data.title, `title of the course ${course.key}`);
  return problems;
};
