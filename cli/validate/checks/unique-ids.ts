import { type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import { catalogued, hintOf, type Problem } from '../../report/problem.ts';
import type { Check } from './check.ts';

/** Banners are told apart by id. */
export const uniqueBannerIds: Check = ({ content }) => (content.banners ? uniqueIds(content.banners.source, ['banners'], content.banners.data.banners) : []);

/** Questions are told apart by id. */
export const uniqueFaqIds: Check = ({ content }) => (content.faq ? uniqueIds(content.faq.source, ['items'], content.faq.data.items) : []);

/** Enquiries name the option chosen by its value: each value names one option. */
export const uniqueFormValues: Check = ({ content }) => {
  const form = content.form;
  if (!form) return [];
  const seen = new Set<string>();
  return form.data.options.flatMap((o, i) => {
    const twice = seen.has(o.value);
    seen.add(o.value);
    if (!twice) return [];
    return [
      problemAt(
        form.source,
        ['options', i, 'value'],
        catalogued('duplicate-id', { what: 'option value', value: o.value }, { hint: hintOf('duplicate-id', {}, 'formValue') }),
      ),
    ];
  });
};

function uniqueIds(source: SourceFile, path: PathPart[], list: { id: string }[]): Problem[] {
  const seen = new Set<string>();
  return list.flatMap((item, i) => {
    const twice = seen.has(item.id);
    seen.add(item.id);
    if (!twice) return [];
    return [problemAt(source, [...path, i, 'id'], catalogued('duplicate-id', { what: 'id', value: item.id }, { found: `"${item.id}"` }))];
  });
}
