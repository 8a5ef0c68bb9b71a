import type { Opened } from '../../load/picture-file.ts';
import { HEADER_BYTES, type Header, readHeader } from '../../load/picture-header.ts';
import { problemAt } from '../../load/source.ts';
import type { Problem } from '../../report/problem.ts';
import { catalogued, expectedOf, foundOf, hintOf } from '../../report/problem.ts';
import { HUGE, USES } from '../../schema/image-uses.ts';
import { LANGUAGE_NAMES, LOCALES } from '../../schema/locales.ts';
import type { Content } from '../content.ts';
import { imageRefs } from '../picture-refs.ts';

/** What each use of a picture is called in a message. */
const USE_NAMES = {
  courseCard: 'a course photo',
  coursePage: 'a course photo',
  teacher: 'a teacher portrait',
  banner: 'a banner',
  homePhoto: 'the home page photo',
  logo: 'the logo',
} as const;

/**
 * Every picture the content names: its alt text in every language (or `decorative: true`), and its
 * file (there, a picture, large enough for each place it is shown, not a camera's huge original).
 * Asks for the first bytes of each file once, however often it is named (`open`: the load stage's
 * confined read, cli/load/picture-file.ts; this check reads no file itself).
 */
export function checkImages(content: Content, open: (file: string, limit: number) => Opened): Problem[] {
  const files = new Map<string, { opened: Opened; header?: Header }>();
  const problems: Problem[] = [];
  for (const ref of imageRefs(content)) {
    const { image, source, path } = ref;
    const value = image.file;
    if (!image.decorative) {
      if (!image.alt) problems.push(problemAt(source, path, catalogued('image-alt-missing', { value }), { key: true }));
      else
        for (const locale of LOCALES)
          if (!image.alt[locale])
            problems.push(
              problemAt(
                source,
                [...path, 'alt'],
                catalogued(
                  'image-alt-missing',
                  { value, language: LANGUAGE_NAMES[locale] },
                  { variant: 'locale', hint: hintOf('image-alt-missing', { locale }, 'locale') },
                ),
                { key: true },
              ),
            );
    }
    let seen = files.get(value);
    if (!seen) {
      const opened = open(value, HEADER_BYTES);
      seen = { opened, header: opened.ok ? readHeader(opened.bytes) : undefined };
      files.set(value, seen);
    }
    const at = [...path, 'file'];
    const { opened, header } = seen;
    if (!opened.ok) {
      const notFile = opened.why === 'notFile';
      problems.push(
        problemAt(
          source,
          at,
          catalogued(
            'image-missing',
            { value },
            {
              expected: expectedOf('image-missing', 'file', {}),
              ...(notFile ? { variant: 'notFile' as const, hint: hintOf('image-missing', {}, 'notFile') } : { found: foundOf('image-missing', 'none', {}) }),
            },
          ),
        ),
      );
      continue;
    }
    if (!header || 'broken' in header) {
      const broken = header !== undefined;
      problems.push(
        problemAt(
          source,
          at,
          catalogued(
            'image-unsupported',
            { value },
            {
              expected: expectedOf('image-unsupported', 'formats', {}),
              ...(broken && { variant: 'broken' as const, hint: hintOf('image-unsupported', {}, 'broken') }),
            },
          ),
        ),
      );
      continue;
    }
    const use = ref.uses.reduce((a, b) => (USES[b].minWidth > USES[a].minWidth ? b : a));
    const min = USES[use].minWidth;
    if (header.width < min)
      problems.push(
        problemAt(
          source,
          at,
          catalogued(
            'image-too-small',
            { value, width: header.width, use: USE_NAMES[use], min },
            {
              expected: expectedOf('image-too-small', 'width', { min }),
              found: foundOf('image-too-small', 'size', { width: header.width, height: header.height }),
            },
          ),
        ),
      );
    const pixels = header.width * header.height;
    if (opened.size > HUGE.bytes || pixels > HUGE.pixels) {
      const size = `${(opened.size / 1024 / 1024).toFixed(1)} MB, ${header.width}×${header.height}`;
      problems.push(problemAt(source, at, catalogued('image-huge', { value, size })));
    }
  }
  return problems;
}
