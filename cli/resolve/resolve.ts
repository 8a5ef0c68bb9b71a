import type {
  Banner,
  Chrome,
  CourseCard,
  CourseDetail,
  FormModel,
  Locale,
  PageBody,
  PageModel,
  PriceCategoryModel,
  PriceText,
  TeacherModel,
  Text,
} from '../../templates/model.ts';
import { InternalError } from '../report/problem.ts';
import { ENQUIRY_RULES } from '../schema/enquiry-rules.ts';
import { isPlaceholder } from '../schema/layout.ts';
import type { Price } from '../schema/price.ts';
import { PLURAL_SUFFIXES, UI_KEYS, type UiKey } from '../schema/ui-keys.ts';
import type { Content, Entry } from '../validate/content.ts';
import { buildJsonLd } from './json-ld.ts';
import type { Translator } from './translator.ts';
import { absoluteUrl, ENDONYMS, localeUrl, urlToFile } from './urls.ts';

/** A validated content set is complete: every singleton is there. */
type Complete = Required<Omit<Content, 'courses' | 'teachers'>> & Pick<Content, 'courses' | 'teachers'>;

export function assertComplete(content: Content): Complete {
  for (const k of ['site', 'routes', 'prices', 'faq', 'banners', 'ui', 'form', 'schedule', 'legal'] as const)
    if (!content[k]) throw new InternalError(`resolve() called with content that did not validate (${k} missing)`);
  return content as Complete;
}

export interface ResolveOptions {
  /** Overrides site.yaml's baseUrl (content build --base-url). */
  baseUrl?: string;
  /** YYYY-MM-DD: banners past their validUntil are left out. */
  today: string;
}

const PER_KEY: Record<Exclude<Price['per'], `TODO:${string}`>, UiKey | undefined> = {
  month: 'prices.perMonth',
  lesson: 'prices.perLesson',
  hour: 'prices.perHour',
  visit: 'prices.perVisit',
  once: undefined,
  package: 'prices.perPackage',
};

/**
 * Stage 4: content → one PageModel per page and locale. Pure: all text goes through the
 * translator, so fallbacks are counted and marked.
 */
export function resolveSite(raw: Content, tr: Translator, options: ResolveOptions): PageModel[] {
  const c = assertComplete(raw);
  const site = c.site.data;
  const locales = site.locales.available as Locale[];
  const baseUrl = options.baseUrl ?? site.baseUrl;
  const routes = c.routes.data.routes;
  const courseList = [...c.courses.values()].sort((a, b) => a.data.order - b.data.order || a.key.localeCompare(b.key));
  const optionOf = new Map(c.form.data.options.map((o) => [o.course, o.value]));
  const contacts = site.contacts;
  const rules = ENQUIRY_RULES;
  const pages: PageModel[] = [];
  // The same for every locale of a route: built once.
  const hreflangs = new Map<string, PageModel['hreflang']>();
  const hreflangFor = (route: string) => {
    let list = hreflangs.get(route);
    if (!list) {
      list = [
        ...locales.map((l) => ({ hreflang: l, href: absoluteUrl(baseUrl, localeUrl(route, l)) })),
        { hreflang: 'x-default', href: absoluteUrl(baseUrl, localeUrl(route, site.locales.default as Locale)) },
      ];
      hreflangs.set(route, list);
    }
    return list;
  };

  for (const locale of locales) {
    const tx = (v: Parameters<Translator['text']>[0]) => tr.text(v, locale);
    const ux = (key: UiKey, vars?: Record<string, unknown>) => tr.ui(key, locale, vars);
    const url = (route: string) => localeUrl(route, locale);
    const formats = [0, 2].map(
      (digits) => new Intl.NumberFormat(locale === 'en' ? 'en-IE' : locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: digits }),
    );
    const money = (amount: number) => formats[amount % 1 ? 1 : 0]!.format(amount);
    const price = (p: { amount: number; from?: boolean; per: Price['per']; note?: Parameters<Translator['text']>[0] }, addOn = false): PriceText => ({
      amount: addOn
        ? ux('prices.addOn', { amount: money(p.amount) })
        : p.from
          ? ux('prices.fromAmount', { amount: money(p.amount) })
          : { text: money(p.amount) },
      per: isPlaceholder(p.per) ? { text: p.per } : PER_KEY[p.per as keyof typeof PER_KEY] ? ux(PER_KEY[p.per as keyof typeof PER_KEY]!) : undefined,
      note: p.note ? tx(p.note) : undefined,
    });

    const ui = Object.fromEntries(
      Object.entries(UI_KEYS).flatMap(([ns, keys]) =>
        keys
          // Plural forms this locale does not have (English has no "few") are not looked up at all.
          .filter((k) => !/_(few|many)$/.test(k) || (PLURAL_SUFFIXES[locale] as readonly string[]).includes(k.split('_').at(-1)!))
          .map((k) => [`${ns}.${k}`, ux(`${ns}.${k}` as UiKey)]),
      ),
    ) as Record<UiKey, Text>;
    const chromeContacts = {
      phone: contacts.phone,
      phoneHref: isPlaceholder(contacts.phone) ? undefined : `tel:${contacts.phone.replace(/[^+0-9]/g, '')}`,
      email: contacts.email,
      emailHref: isPlaceholder(contacts.email) ? undefined : `mailto:${contacts.email}`,
      address: [contacts.address.street, `${contacts.address.postalCode} ${contacts.address.city}`].join(', '),
      location: tx(contacts.location),
    };
    // What every page of a locale shares is built once; only the language switcher differs.
    const sharedChrome = {
      locale,
      siteName: site.name,
      homeHref: url('/'),
      menu: site.menu.map((m) => ({ id: m.id, label: tx(m.label), href: linkUrl(m.link, locale) })),
      contacts: chromeContacts,
      hours: site.hours.map((h) => ({ days: tx(h.days), time: h.time, note: h.note ? tx(h.note) : undefined })),
      footerLinks: routes.filter((r) => r.page === 'legal').map((r) => ({ href: url(r.path), label: tx(r.title) })),
      ui,
    };
    const chromeFor = (route: string): Chrome => ({
      ...sharedChrome,
      alternates: locales.map((l) => ({ locale: l, href: localeUrl(route, l), name: ENDONYMS[l] })),
    });
    const forms = new Map<string | undefined, FormModel>();
    const form = (selected?: string): FormModel => {
      let model = forms.get(selected);
      if (!model) {
        model = formModel(selected);
        forms.set(selected, model);
      }
      return model;
    };
    const formModel = (selected?: string): FormModel => ({
      locale,
      action: site.form.endpoint,
      thanksHref: url(site.form.thanksPath),
      options: c.form.data.options.map((o) => ({ value: o.value, label: tx(o.label) })),
      selected,
      labels: {
        title: ux('form.title'),
        intro: ux('form.intro'),
        name: ux('form.name'),
        course: ux('form.course'),
        coursePlaceholder: ux('form.coursePlaceholder'),
        message: ux('form.message'),
        email: ux('form.email'),
        required: ux('form.required'),
        submit: ux('form.submit'),
        sending: ux('form.sending'),
        privacyNote: ux('form.privacyNote'),
        success: ux('form.success'),
        failure: ux('form.failure'),
        scriptFailed: ux('form.scriptFailed'),
        errorRequired: ux('form.errorRequired'),
        errorEmail: ux('form.errorEmail'),
        errorCourse: ux('form.errorCourse'),
        // Templates with {{max}} / {{count}} left in: the browser fills them in.
        errorTooLong: ux('form.errorTooLong'),
        errorSummary: Object.fromEntries(PLURAL_SUFFIXES[locale].map((s) => [s, ux(`form.errorSummary_${s}` as UiKey)])) as FormModel['labels']['errorSummary'],
      },
      rules,
      contacts: chromeContacts,
      scriptTimeoutMs: site.form.scriptTimeoutSeconds * 1000,
    });

    const teacherRef = (key: string) => {
      const t = c.teachers.get(key);
      return t ? { key, name: tx(t.data.name), role: tx(t.data.role) } : { key, name: { text: key }, role: { text: key } };
    };
    const courseDetail = (e: Entry<'course'>): CourseDetail => {
      const d = e.data;
      return {
        key: e.key,
        title: tx(d.title),
        summary: tx(d.summary),
        age: tx(d.age),
        format: tx(d.format),
        duration: tx(d.duration),
        teachers: d.teachers.map(teacherRef),
        price: d.price ? price(d.price) : undefined,
        goal: tx(d.goal),
        howClassesRun: tx(d.howClassesRun),
        features: d.features.map(tx),
        trial: tx(d.trial),
        languages: typeof d.languages === 'string' ? [{ text: d.languages }] : d.languages.map((l) => ux(`lang.${l}` as UiKey)),
        languagesNote: d.languagesNote ? tx(d.languagesNote) : undefined,
        rules: (d.rules ?? []).map(tx),
        steps: (d.steps ?? []).map((s) => ({ title: tx(s.title), text: s.text ? tx(s.text) : undefined })),
        subPrograms: (d.subPrograms ?? []).map((s) => ({ key: s.key, title: tx(s.title), age: tx(s.age), text: tx(s.text) })),
        audience: d.audience,
        formValue: optionOf.get(e.key),
      };
    };

    const bodyFor = (route: (typeof routes)[number]): PageBody => {
      switch (route.page) {
        case 'home':
          return {
            kind: 'home',
            courses: courseList.map(
              (e): CourseCard => ({
                key: e.key,
                title: tx(e.data.title),
                summary: tx(e.data.summary),
                age: tx(e.data.age),
                href: e.data.route ? url(e.data.route) : undefined,
                price: e.data.price ? price(e.data.price) : undefined,
                isForParents: e.data.audience === 'parents',
                formValue: optionOf.get(e.key),
              }),
            ),
            banners: c.banners.data.banners
              .filter((b) => !b.validUntil || b.validUntil >= options.today)
              .map(
                (b): Banner => ({
                  id: b.id,
                  pill: tx(b.pill),
                  title: tx(b.title),
                  subtitle: tx(b.subtitle),
                  cta: { label: tx(b.cta.label), href: linkUrl(b.cta.link, locale) },
                  isNew: Boolean(b.isNew),
                }),
              ),
          };
        case 'course':
          return { kind: 'course', course: courseDetail(c.courses.get(route.course!)!) };
        case 'prices':
          return {
            kind: 'prices',
            categories: c.prices.data.categories.map(
              (cat): PriceCategoryModel => ({
                id: cat.id,
                title: tx(cat.title),
                items: cat.items.map((item) =>
                  item.type === 'sub'
                    ? { type: 'sub' as const, label: tx(item.label) }
                    : { type: 'item' as const, id: item.id, label: tx(item.label), price: price(item.price, item.addOn) },
                ),
                table: cat.table && {
                  caption: tx(cat.table.caption),
                  columnHeader: tx(cat.table.columnHeader),
                  columns: cat.table.columns.map((n) => ux('prices.lessons' as UiKey, { count: n })),
                  rows: cat.table.rows.map((r) => ({ id: r.id, label: tx(r.label), amounts: r.amounts.map((a) => ({ text: money(a) })) })),
                },
                notes: (cat.notes ?? []).map(tx),
              }),
            ),
            recordingPackages: c.prices.data.recordingPackages.map((p) => ({
              id: p.id,
              name: p.name,
              description: tx(p.description),
              revisions: ux('prices.revisions' as UiKey, { count: p.revisions }),
              price: p.price ? price(p.price) : undefined,
            })),
            paymentRules: c.prices.data.paymentRules.map(tx),
          };
        case 'teachers':
          return {
            kind: 'teachers',
            teachers: [...c.teachers.values()]
              .sort((a, b) => a.data.order - b.data.order || a.key.localeCompare(b.key))
              .map(
                (t): TeacherModel => ({
                  key: t.key,
                  name: tx(t.data.name),
                  role: tx(t.data.role),
                  edu: tx(t.data.edu),
                  text1: tx(t.data.text1),
                  text2: tx(t.data.text2),
                  extra: [t.data.extra1, t.data.extra2].filter((x) => x !== undefined).map(tx),
                  quote: t.data.quote ? tx(t.data.quote) : undefined,
                  courses: t.data.courses.flatMap((k) => {
                    const course = c.courses.get(k);
                    return course?.data.route ? [{ href: url(course.data.route), label: tx(course.data.title) }] : [];
                  }),
                }),
              ),
          };
        case 'faq':
          return { kind: 'faq', items: c.faq.data.items.map((i) => ({ id: i.id, question: tx(i.question), answer: i.answer.map(tx) })) };
        case 'schedule':
          return {
            kind: 'schedule',
            intro: tx(c.schedule.data.intro),
            rows: c.schedule.data.entries.map((e) => {
              const course = c.courses.get(e.course)!;
              const known = !isPlaceholder(e.day) && !isPlaceholder(e.start) && !isPlaceholder(e.end);
              return {
                day: isPlaceholder(e.day) ? ux('schedule.toBeAnnounced') : ux(`schedule.${e.day}` as UiKey),
                time: known ? { text: `${e.start}–${e.end}` } : ux('schedule.toBeAnnounced'),
                course: { href: course.data.route ? url(course.data.route) : url('/'), label: tx(course.data.title) },
                note: e.note ? tx(e.note) : undefined,
              };
            }),
          };
        case 'legal':
          return { kind: 'legal', sections: c.legal.data[route.legal!].sections.map((s) => ({ heading: tx(s.heading), body: s.body.map(tx) })) };
      }
    };

    const page = (p: Omit<PageModel, 'file' | 'chrome' | 'og' | 'hreflang' | 'canonical' | 'jsonLd'> & { jsonLd?: object[] }): PageModel => ({
      ...p,
      file: urlToFile(p.url),
      canonical: p.noindex ? undefined : absoluteUrl(baseUrl, p.url),
      hreflang: p.noindex ? [] : hreflangFor(p.route),
      chrome: chromeFor(p.route),
      og: { url: absoluteUrl(baseUrl, p.url), siteName: site.name, locale: OG_LOCALE[locale] },
      jsonLd: p.jsonLd ?? [],
    });

    for (const route of routes) {
      const pageUrl = url(route.path);
      const body = bodyFor(route);
      const withForm = body.kind === 'home' || body.kind === 'course';
      const p = page({
        url: pageUrl,
        route: route.path,
        locale,
        title: tx(route.title),
        description: tx(route.description),
        noindex: false,
        body,
        form: withForm ? form(body.kind === 'course' ? body.course.formValue : undefined) : undefined,
      });
      p.jsonLd = buildJsonLd(p, { site, baseUrl, courseFor: (k) => c.courses.get(k)?.data, faq: c.faq.data, tr, locale, routeCourse: route.course });
      pages.push(p);
    }
    const thanks = site.form.thanksPath;
    pages.push(
      page({
        url: url(thanks),
        route: thanks,
        locale,
        title: ux('form.thanksTitle'),
        description: ux('form.success'),
        noindex: true,
        body: { kind: 'thanks' },
      }),
    );
    const notFoundUrl = url('/404');
    pages.push(
      page({
        url: notFoundUrl,
        route: '/404',
        locale,
        title: ux('notFound.title'),
        description: ux('notFound.text'),
        noindex: true,
        body: { kind: 'notFound', homeHref: url('/') },
      }),
    );
  }
  return pages;
}

/** A content link ("/prises", "/#enquiry") in a locale. */
function linkUrl(link: string, locale: Locale): string {
  const [route, fragment] = link.split('#') as [string, string | undefined];
  return `${localeUrl(route, locale)}${fragment ? `#${fragment}` : ''}`;
}

const OG_LOCALE: Record<Locale, string> = { ru: 'ru_RU', en: 'en_GB', de: 'de_DE' };
