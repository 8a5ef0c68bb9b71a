// Synthetic content in the project's own format, from a fixed seed: N courses × 3 locales,
// with every other file minimal but valid. Used by the benchmarks and by tests of the build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { UI_KEYS } from '../cli/schema/ui-keys.ts';

/** A small deterministic PRNG (mulberry32), so every run generates the same content. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = {
  ru: 'музыка занятие ребёнок группа голос ритм игра развитие речь рисунок песня внимание память движение сцена'.split(' '),
  en: 'music lesson child group voice rhythm play growth speech drawing song attention memory movement stage'.split(' '),
  de: 'Musik Stunde Kind Gruppe Stimme Rhythmus Spiel Entwicklung Sprache Zeichnung Lied Aufmerksamkeit Gedächtnis Bewegung Bühne'.split(' '),
};

type Texts = { ru: string; en: string; de: string };
type Sentence = (words: number) => Texts;

const lt = (ru: string, en: string, de: string): Texts => ({ ru, en, de });

/** Random sentences of `words` words, the same words in each locale. */
function sentences(random: () => number): Sentence {
  return (n) => {
    const idx = Array.from({ length: n }, () => Math.floor(random() * WORDS.ru.length));
    const make = (l: keyof typeof WORDS) => {
      const s = idx.map((i) => WORDS[l][i]).join(' ');
      return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
    };
    return { ru: make('ru'), en: make('en'), de: make('de') };
  };
}

/**
 * Writes `courses` courses and every other content file, with random texts from `seed`. The
 * files are written in a fixed order, as each takes the next sentences of the one sequence.
 */
export function writeSyntheticContent(dir: string, courses: number, seed = 42): void {
  const sentence = sentences(rng(seed));
  const write = (rel: string, schema: string, data: unknown) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(
      join(dir, rel),
      `# yaml-language-server: $schema=${'../'.repeat(rel.split('/').length)}schemas/${schema}.schema.json\n${stringify(data, { lineWidth: 0 })}`,
    );
  };
  const keys = Array.from({ length: courses }, (_, i) => `course${String(i).padStart(5, '0')}`);

  write('site.yaml', 'site', SITE);
  write('routes.yaml', 'routes', routes(keys, sentence));
  for (const [i, k] of keys.entries()) write(`courses/${k}.yaml`, 'course', course(k, i, sentence));
  write('teachers/teacher.yaml', 'teacher', {
    order: 1,
    name: lt('Анна', 'Anna', 'Anna'),
    role: sentence(2),
    edu: sentence(5),
    text1: sentence(10),
    text2: sentence(10),
    courses: [],
  });
  write('prices.yaml', 'prices', {
    title: sentence(1),
    currency: 'EUR',
    categories: [{ id: 'all', title: sentence(1), items: [{ type: 'item', id: 'group', label: sentence(2), price: { amount: 90, per: 'month' } }] }],
    recordingPackages: [{ id: 'lite', name: 'Lite', description: sentence(5), revisions: 1 }],
    paymentRules: [sentence(8)],
  });
  write('faq.yaml', 'faq', { title: sentence(1), items: [{ id: 'q1', question: sentence(5), answer: [sentence(15)] }] });
  write('banners.yaml', 'banners', {
    banners: [{ id: 'b1', pill: sentence(1), title: sentence(3), subtitle: sentence(6), cta: { label: sentence(2), link: '/#enquiry' } }],
  });
  write('ui.yaml', 'ui', Object.fromEntries(Object.entries(UI_KEYS).map(([ns, ks]) => [ns, Object.fromEntries(ks.map((k) => [k, uiText(k)]))])));
  write('form.yaml', 'form', { options: keys.slice(0, 22).map((k) => ({ value: k, course: k, label: sentence(2) })) });
  write('schedule.yaml', 'schedule', { intro: sentence(6), entries: [{ course: keys[0], day: 'fr', start: '19:00', end: '20:00' }] });
  const legal = { sections: [{ heading: sentence(2), body: [sentence(20)] }] };
  write('legal.yaml', 'legal', { impressum: legal, privacy: legal, terms: legal });
}

const SITE = {
  name: 'Synthetic Studio',
  baseUrl: 'https://bench.example',
  contacts: {
    phone: '+49 30 1234567',
    email: 'info@bench.example',
    address: { street: 'Musterstraße 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
    location: lt('Второй этаж', 'Second floor', 'Zweiter Stock'),
  },
  hours: [
    { days: lt('Пн–Пт', 'Mon–Fri', 'Mo–Fr'), dayCodes: ['Mo', 'Tu', 'We', 'Th', 'Fr'], time: '09:00–20:00' },
    { days: lt('Сб', 'Sat', 'Sa'), dayCodes: ['Sa'], time: '10:00–16:00' },
    { days: lt('Вс', 'Sun', 'So'), dayCodes: ['Su'], note: lt('по запросу', 'on request', 'auf Anfrage') },
  ],
  menu: [
    { id: 'courses', label: lt('Курсы', 'Courses', 'Kurse'), link: '/#courses' },
    { id: 'schedule', label: lt('Расписание', 'Schedule', 'Stundenplan'), link: '/schedule' },
    { id: 'contacts', label: lt('Контакты', 'Contacts', 'Kontakt'), link: '/#contacts' },
    { id: 'prices', label: lt('Цены', 'Prices', 'Preise'), link: '/prises' },
    { id: 'teachers', label: lt('Педагоги', 'Teachers', 'Lehrkräfte'), link: '/teachers' },
    { id: 'faq', label: lt('Вопросы', 'FAQ', 'FAQ'), link: '/faq' },
    { id: 'booking', label: lt('Запись онлайн', 'Online booking', 'Online-Anmeldung'), link: '/#enquiry' },
  ],
  form: { endpoint: '/api/enquiry', thanksPath: '/thanks', scriptTimeoutSeconds: 120 },
};

function routes(keys: string[], sentence: Sentence) {
  const page = (path: string, kind: string, extra: Record<string, unknown> = {}) => ({
    path,
    page: kind,
    ...extra,
    title: sentence(2),
    description: sentence(12),
  });
  return {
    routes: [
      page('/', 'home'),
      page('/prises', 'prices'),
      page('/teachers', 'teachers'),
      page('/faq', 'faq'),
      page('/schedule', 'schedule'),
      page('/impressum', 'legal', { legal: 'impressum' }),
      page('/privacy', 'legal', { legal: 'privacy' }),
      page('/terms', 'legal', { legal: 'terms' }),
      ...keys.map((k) => page(`/${k}`, 'course', { course: k })),
    ],
  };
}

function course(key: string, order: number, sentence: Sentence) {
  return {
    route: `/${key}`,
    order,
    title: sentence(2),
    summary: sentence(10),
    age: lt('5–6 лет', '5–6 years', '5–6 Jahre'),
    format: sentence(4),
    duration: lt('45 минут', '45 minutes', '45 Minuten'),
    teachers: ['teacher'],
    price: { ref: 'group', amount: 90, per: 'month' },
    goal: sentence(12),
    howClassesRun: sentence(40),
    features: Array.from({ length: 5 }, () => sentence(6)),
    trial: sentence(8),
    languages: ['ru', 'de'],
    audience: 'children',
  };
}

/** A text for each interface key, with the placeholders and plural forms the key asks for (few and many only in Russian). */
function uiText(key: string) {
  return /_(one|few|many|other)$/.test(key)
    ? { ru: `{{count}} ${key}`, ...(/_(few|many)$/.test(key) ? {} : { en: `{{count}} ${key}`, de: `{{count}} ${key}` }) }
    : key.startsWith('fromAmount') || key === 'addOn'
      ? lt('от {{amount}}', 'from {{amount}}', 'ab {{amount}}')
      : key === 'errorTooLong'
        ? lt('Не более {{max}}', 'At most {{max}}', 'Höchstens {{max}}')
        : lt(`ru ${key}`, `en ${key}`, `de ${key}`);
}

if (import.meta.main) {
  const [dir, n] = process.argv.slice(2);
  writeSyntheticContent(dir ?? 'bench/.work/content', Number(n ?? 10));
  console.log(`wrote ${n ?? 10} synthetic courses to ${dir ?? 'bench/.work/content'}`);
}
