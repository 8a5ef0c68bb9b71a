import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { checkGlossary, type GlossaryEntry } from '../../cli/i18n/glossary.ts';
import { CONTENT } from '../helpers/cli.ts';
import { fileForUrl, localeUrl, siteFiles, visibleText } from '../helpers/site.ts';

/**
 * Issue 38, "ready to publish in Germany", read on the built shipped site as a visitor reads it:
 * the legal pages ask for every fact the law requires, prices are stated as PAngV wants them, the
 * online consultation's fee is never "not refunded" without the right of withdrawal, one class is
 * never a "Stunde", nothing is booked by a button that says so.
 */
type Locale = 'ru' | 'en' | 'de';
const LOCALES: Locale[] = ['ru', 'en', 'de'];
const dist = inject('siteDir');
const urlOf = localeUrl;
const html = (route: string, l: Locale) => readFileSync(join(dist, fileForUrl(urlOf(route, l))), 'utf8');
const visible = visibleText;
/** The paragraphs of a page's main part, as visitors read them one by one. */
const paragraphs = (route: string, l: Locale) => [...html(route, l).matchAll(/<(p|li)[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => visible(`<body>${m[2]}`).trim());
/** Every page of a locale, with its visible text. */
const pagesOf = (l: Locale) =>
  siteFiles(dist)
    .filter((f) => f.endsWith('.html') && (l === 'ru' ? !/^(en|de)(\/|\.html$)/.test(f) : f.startsWith(`${l}/`) || f === `${l}.html`))
    .map((f) => ({ file: f, text: visible(readFileSync(join(dist, f), 'utf8')) }));

/** The placeholder that asks for an item: its paragraph starts with "TODO:" and names the item. */
function askedFor(route: string, l: Locale, words: string[]): string[] {
  const todos = paragraphs(route, l).filter((p) => p.startsWith('TODO:'));
  return words.filter((w) => !todos.some((p) => p.includes(w))).map((w) => `${urlOf(route, l)}: no placeholder asks for "${w}"`);
}

describe('1. the Impressum asks for every item § 5 DDG, § 18 Abs. 2 MStV and § 36 VSBG require, each saying when it applies', () => {
  const ITEMS: Record<Locale, string[]> = {
    ru: [
      'имя и адрес оператора',
      'правовая форма',
      'регистрационный суд и номер',
      'USt-IdNr.',
      'W-IdNr.',
      'надзорный орган',
      'ответственного лица',
      '§ 36 VSBG',
    ],
    en: [
      'name and address of the operator',
      'legal form',
      'register court and number',
      'USt-IdNr.',
      'W-IdNr.',
      'supervisory authority',
      'person responsible',
      '§ 36 VSBG',
    ],
    de: [
      'Name und Anschrift des Betreibers',
      'Rechtsform und vertretungsberechtigte Person',
      'Registergericht und Registernummer',
      'Umsatzsteuer-Identifikationsnummer nach § 27a UStG',
      'Wirtschafts-Identifikationsnummer nach § 139c AO',
      'zuständige Aufsichtsbehörde',
      'verantwortlichen Person',
      '§ 36 VSBG',
    ],
  };
  /** What a sole trader leaves out: each of these says when it applies, so none is asked of everyone. */
  const WHEN: Record<Locale, RegExp> = {
    ru: /только|нужно, если|обязательно, если|удалите/,
    en: /only|needed if|required if|delete/,
    de: /nur|nötig, wenn|Pflicht bei|löschen|entfallen/,
  };

  it('has a placeholder for each item, in the reader’s language', () => {
    expect(LOCALES.flatMap((l) => askedFor('/impressum', l, ITEMS[l]))).toEqual([]);
    expect(visible(html('/impressum', 'de'))).toContain('Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV');
  });

  it('says of every item but the name, address and contact when it applies', () => {
    const always = /immer|always|всегда/;
    const missing = LOCALES.flatMap((l) =>
      paragraphs('/impressum', l)
        .filter((p) => p.startsWith('TODO:') && !always.test(p) && !WHEN[l].test(p))
        .map((p) => `${urlOf('/impressum', l)}: "${p.slice(0, 60)}…" does not say when it applies`),
    );
    expect(missing).toEqual([]);
  });
});

describe('2. the privacy page covers what the software does (Art. 13 GDPR)', () => {
  const keepDays = (parse(readFileSync(join(CONTENT, 'site.yaml'), 'utf8')) as { form: { keepDays: number } }).form.keepDays;

  it('states the retention period the server applies, from the build’s settings, in every locale, and the manifest carries the same', () => {
    // The word for days agrees with the number (tests/build/keep-days-words.test.ts): 1 день, 3 дня, 5 дней.
    const ru = { one: 'день', few: 'дня', many: 'дней', other: 'дня' }[new Intl.PluralRules('ru').select(keepDays) as 'one' | 'few' | 'many' | 'other'];
    const [en, de] = keepDays === 1 ? ['day', 'Tag'] : ['days', 'Tage'];
    const said: Record<Locale, string> = {
      ru: `через ${keepDays} ${ru}`,
      en: `${keepDays} ${en} after they arrive`,
      de: `${keepDays} ${de} nach ihrem Eingang`,
    };
    for (const l of LOCALES) expect(visible(html('/privacy', l))).toContain(said[l]);
    expect(JSON.parse(readFileSync(join(dist, '.studio', 'enquiry.json'), 'utf8')).keepDays).toBe(keepDays);
    for (const l of LOCALES) expect(html('/privacy', l)).not.toContain('{{');
  });

  it('says what the server logs (no IP address), what the rate limit keeps and on which basis, what is required, and why no health details', () => {
    const de = visible(html('/privacy', 'de'));
    for (const words of [
      'Ihre IP-Adresse, Ihr Name, Ihre E-Mail-Adresse und Ihre Angaben im Formular werden nicht protokolliert',
      'höchstens zehn Minuten',
      'Hashwert',
      'Art. 6 Abs. 1 lit. f DSGVO',
      'Art. 6 Abs. 1 lit. b DSGVO',
      'Gesetzlich oder vertraglich verpflichtet sind Sie dazu nicht',
      'Art. 9 DSGVO',
      'Kontakt per E-Mail oder Telefon',
      'Sicherungskopien',
    ])
      expect(de).toContain(words);
    const en = visible(html('/privacy', 'en'));
    for (const words of ['never logged', 'ten minutes', 'Art. 6(1)(f) GDPR', 'Art. 9 GDPR', 'backups']) expect(en).toContain(words);
  });

  it('asks for the controller, the hosting and e-mail providers and the supervisory authority as placeholders', () => {
    const items: Record<Locale, string[]> = {
      ru: ['ответственный за обработку данных', 'хостинг-провайдер', 'почтовый провайдер', 'надзорный орган по защите данных'],
      en: ['the data controller', 'the hosting provider', 'the e-mail provider', 'supervisory authority'],
      de: ['Verantwortliche Stelle', 'Hosting-Anbieter', 'E-Mail-Anbieter', 'Datenschutz-Aufsichtsbehörde'],
    };
    expect(LOCALES.flatMap((l) => askedFor('/privacy', l, items[l]))).toEqual([]);
  });

  it('asks at the free-text field for no health details of a child, on every page with the form', () => {
    const hint: Record<Locale, string> = { ru: 'сведения о здоровье ребёнка', en: 'your child’s health', de: 'Angaben zur Gesundheit Ihres Kindes' };
    for (const l of LOCALES) {
      const page = html('/', l);
      expect(page).toContain('aria-describedby="enquiry-message-error enquiry-message-hint"');
      expect(/id="enquiry-message-hint"><span>([^<]*)</.exec(page)?.[1]).toContain(hint[l]);
    }
  });
});

describe('3. the online consultation is a distance contract: no fee "not refunded" without the right of withdrawal', () => {
  const NOT_REFUNDED: Record<Locale, RegExp> = { ru: /не возвращается/, en: /non-refundable|not refunded/, de: /nicht erstattet/ };
  const WITHDRAWAL: Record<Locale, RegExp> = { ru: /право на отказ от договора/, en: /right of withdrawal/, de: /Widerrufsrecht/ };

  it('never says the fee is not refunded on a page that does not state the right of withdrawal, in the same paragraph', () => {
    const wrong: string[] = [];
    for (const l of LOCALES)
      for (const { file } of pagesOf(l)) {
        const page = readFileSync(join(dist, file), 'utf8');
        for (const m of page.matchAll(/<(p|li|dd)[^>]*>([\s\S]*?)<\/\1>/g)) {
          const text = visible(`<body>${m[2]}`);
          if (NOT_REFUNDED[l].test(text) && !WITHDRAWAL[l].test(text)) wrong.push(`${file}: "${text.trim().slice(0, 80)}"`);
        }
      }
    expect(wrong).toEqual([]);
  });

  it('has the Widerrufsbelehrung with the model withdrawal form, and the request to start within the withdrawal period', () => {
    const de = visible(html('/terms', 'de'));
    for (const words of [
      'Widerrufsbelehrung',
      'binnen vierzehn Tagen ohne Angabe von Gründen',
      'Folgen des Widerrufs',
      'Haben Sie verlangt, dass die Dienstleistungen während der Widerrufsfrist beginnen sollen',
      'Muster-Widerrufsformular',
      'Unzutreffendes streichen',
      'Soll die Beratung vor Ablauf der 14-tägigen Widerrufsfrist stattfinden',
    ])
      expect(de).toContain(words);
    expect(askedFor('/terms', 'de', ['diese Belehrung prüfen und bestätigen', 'An: Name, Anschrift und E-Mail-Adresse des Studios'])).toEqual([]);
    expect(visible(html('/terms', 'en'))).toContain('Model withdrawal form');
    expect(visible(html('/online-consultation', 'de'))).toContain('Ihr Widerrufsrecht erlischt, sobald die Beratung vollständig erbracht ist');
  });
});

describe('4. prices as PAngV asks', () => {
  it('says on the price list, in every locale, that the prices are final prices, with the VAT status as a placeholder', () => {
    const said: Record<Locale, [string, string]> = {
      ru: ['являются конечными ценами', 'TODO: НДС'],
      en: ['All prices are final prices in euros.', 'TODO: VAT'],
      de: ['Alle Preise sind Endpreise in Euro.', 'TODO: Umsatzsteuer'],
    };
    for (const l of LOCALES) {
      const page = visible(html('/prises', l));
      for (const words of said[l]) expect(page, urlOf('/prises', l)).toContain(words);
    }
    expect(visible(html('/prises', 'de'))).toMatch(/§ 4 Nr\. 21 UStG.*§ 19 UStG/);
  });

  it('says beside every "from" price what the final price depends on, and asks whether months without groups are charged', () => {
    for (const l of LOCALES) {
      const page = html('/prises', l).replace(/\u00a0/g, ' ');
      const from = { ru: 'от ', en: 'from ', de: 'ab ' }[l];
      const lines = [...page.matchAll(/<strong>([^<]*)<\/strong>([\s\S]*?)<\/li>/g)].filter((m) => m[1]!.startsWith(from));
      expect(lines.length, urlOf('/prises', l)).toBe(3);
      for (const m of lines) expect(visible(`<body>${m[2]}`), `${urlOf('/prises', l)} ${m[1]}`).toMatch(/TODO:/);
    }
    expect(askedFor('/prises', 'de', ['auch im Sommer', 'im Dezember'])).toEqual([]);
  });
});

describe('5. "Stunde" is never one class in German', () => {
  const translations = parse(readFileSync(join(CONTENT, 'translations.yaml'), 'utf8')) as { glossary: GlossaryEntry[] };
  const found = (text: string) =>
    checkGlossary(translations.glossary, [{ value: { de: text } }], ['de'], (_, __, p) => ({ ...p, file: '' })).map((p) => p.found);

  it('the glossary refuses "Stunde" for a single class, and leaves hours and the trial lesson alone', () => {
    for (const text of ['Eine Stunde dauert 60 oder 40–45 Minuten', '4 Stunden à 50 Minuten', 'Einzelne Stunde', '16 Stunden', 'Verpasste Gruppenstunden'])
      expect(found(text), text).not.toEqual([]);
    for (const text of ['spätestens 24 Stunden vor der Beratung', 'eine Probestunde', 'der Stundenplan', '4 Termine à 50 Minuten'])
      expect(found(text), text).toEqual([]);
  });

  it('no German page says "Stunde" for one class', () => {
    const refused = /(?<![\p{L}])(Stunde|Einzelstunden?|Gruppenstunden?|Unterrichtsstunden?)(?![\p{L}])|\b(1|4|8|16) Stunden\b|Stunden à/u;
    const wrong = pagesOf('de').flatMap(({ file, text }) => [...text.matchAll(new RegExp(refused, 'gu'))].map((m) => `${file}: "${m[0]}"`));
    expect(wrong).toEqual([]);
    const table = visible(html('/prises', 'de'));
    expect(table).toContain('Dauer eines Termins 1 Termin Karte für 4 Termine Karte für 8 Termine Karte für 16 Termine');
  });
});

describe('6. names that promise what the studio may not be', () => {
  it('calls the group for 2-year-olds a playgroup in English and German, and asks about the permit (§ 45 SGB VIII)', () => {
    for (const l of ['en', 'de'] as const) {
      const wrong = pagesOf(l).flatMap(({ file, text }) =>
        [...text.replace(/TODO:[^.]*„Kita“|TODO:[^.]*“Kita”/g, '').matchAll(/Mini-Kita|\bKita\b/g)].map(() => file),
      );
      expect(wrong, l).toEqual([]);
    }
    expect(visible(html('/mini-kita', 'de'))).toContain('Spielgruppe ab 2 Jahren');
    expect(askedFor('/mini-kita', 'de', ['Betriebserlaubnis nach § 45 SGB VIII'])).toEqual([]);
    expect(visible(html('/mini-kita', 'ru'))).toContain('Mini-Kita');
  });

  it('gives the Russian price list the neutral speech wording, with "not a medical examination" beside the assessment', () => {
    const ru = visible(html('/prises', 'ru'));
    expect(ru).not.toMatch(/Логопед|Диагностика/);
    expect(ru).toMatch(/Оценка речевого развития \(45–50 минут\) 70 € педагогическая консультация, а не медицинское обследование/);
    expect(visible(html('/prises', 'de'))).toContain('keine medizinische Untersuchung');
  });
});

describe('7. nothing is booked, so nothing says "Anmelden"', () => {
  it('labels the form’s submit button and the sign-up buttons "Anfrage senden" / "Send enquiry"', () => {
    const submit: Record<Locale, string> = { ru: 'Отправить заявку', en: 'Send enquiry', de: 'Anfrage senden' };
    for (const l of LOCALES) {
      const page = html('/', l);
      expect(/<button type="submit"[^>]*><span>([^<]*)</.exec(page)?.[1], l).toBe(submit[l]);
    }
    const wrong = pagesOf('de').flatMap(({ file, text }) =>
      [...text.matchAll(/Anmelden|Kursanmeldung|Online-Anmeldung|Online anmelden/g)].map((m) => `${file}: "${m[0]}"`),
    );
    expect(wrong).toEqual([]);
  });

  it('has no link or button that says it signs up or books: the price list ends with "Anfrage zu einem Kurs senden"', () => {
    const SAYS_BOOKED: Record<'en' | 'de', RegExp> = { en: /sign(ing)? up|\bbook(ing)?\b|\bregister\b/i, de: /anmeld|buchen|Buchung/i };
    const wrong = (['en', 'de'] as const).flatMap((l) =>
      pagesOf(l).flatMap(({ file }) =>
        [...readFileSync(join(dist, file), 'utf8').matchAll(/<(a|button)\b[^>]*>([\s\S]*?)<\/\1>/g)]
          .map((m) => visible(`<body>${m[2]}`).trim())
          // SPEC names the menu entry "Online booking"; it stays, as SPEC's words do (the German menu says "Online-Anfrage").
          .filter((label) => SAYS_BOOKED[l].test(label) && label !== 'Online booking')
          .map((label) => `${file}: "${label}"`),
      ),
    );
    expect(wrong).toEqual([]);
    expect(visible(html('/prises', 'de'))).toContain('Anfrage zu einem Kurs senden');
    expect(visible(html('/prises', 'en'))).toContain('Enquire about a course');
  });

  it('thanks once on the German thank-you page, and names the terms "Teilnahmebedingungen"', () => {
    const thanks = visible(html('/thanks', 'de'));
    expect(thanks.match(/Vielen Dank/g)).toHaveLength(1);
    expect(visible(html('/', 'de'))).toContain('Teilnahmebedingungen');
    expect(/<title>([^<]*)<\/title>/.exec(html('/online-consultation', 'de'))?.[1]).toMatch(/^Online-Beratung zur Sprachentwicklung/);
  });

  it('breaks "Teilnahme­bedingungen" on a narrow screen, but carries no soft hyphen into the title, a link preview or a search result', () => {
    const terms = html('/terms', 'de');
    expect(terms).toMatch(/<h1>Teilnahme\u00ADbedingungen<\/h1>/);
    const head = terms.slice(0, terms.indexOf('</head>'));
    expect(head).toContain('<title>Teilnahmebedingungen · ');
    expect(head).toContain('<meta property="og:title" content="Teilnahmebedingungen"/>');
    expect(head).not.toContain('\u00AD');
  });
});

describe('7. more of the wording the audit of 2026-12-07 flagged (section 4)', () => {
  it('sets German dashes as the spaced Gedankenstrich, never the English em dash', () => {
    const wrong = pagesOf('de').flatMap(({ file, text }) => (text.includes('—') ? [file] : []));
    expect(wrong).toEqual([]);
  });

  it('never calls one-to-one speech lessons "Einzeltermine", the glossary’s word for a single lesson', () => {
    expect(visible(html('/speech-development', 'de'))).not.toMatch(/\d Einzeltermine/);
    expect(visible(html('/speech-development', 'de'))).toContain('4 Termine Einzelunterricht im Monat');
  });

  it('starts every English course fact in capitals, as "Adults" does ("Ages 3–4", not "ages 3–4")', () => {
    const wrong = pagesOf('en').flatMap(({ file }) =>
      [...(/<dl class="facts">([\s\S]*?)<\/dl>/.exec(readFileSync(join(dist, file), 'utf8'))?.[1] ?? '').matchAll(/<dt>[^<]*<\/dt><dd>([^<])/g)]
        .filter((m) => m[1] !== m[1]!.toUpperCase())
        .map((m) => `${file}: "${m[1]}…"`),
    );
    expect(wrong).toEqual([]);
  });
});

describe('8. the Russian individual price', () => {
  it('asks beside the 35 € monthly price whether it is per month or per lesson', () => {
    for (const l of LOCALES) {
      const page = html('/prises', l).replace(/\u00a0/g, ' ');
      const line = /<strong>(35 €|€35)<\/strong>([\s\S]*?)<\/li>/.exec(page);
      expect(visible(`<body>${line?.[2] ?? ''}`), l).toMatch(/TODO:.*(35 €|€35)/);
    }
  });
});
