import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { folderCacheFile } from '../../cli/cache/policy.ts';
import { drawing } from '../fixtures/images/photos.ts';
import { FIXTURE, ROOT } from '../helpers/cli.ts';
import { type Rng, seeded } from '../helpers/random.ts';
import { snapshotDir } from '../helpers/site.ts';

// Incremental builds must equal clean ones, byte for byte. From a fixed seed, random single
// edits of every kind of content file (valid ones, and invalid ones the build must refuse
// without touching the site), of the pictures (a photo put on a course, its bytes changed, taken off, one missing), of translations.yaml, a field a course did not have, and of the
// build's settings (--today, --base-url), each followed by an incremental build into the same folder (the
// previous site, the page records, the parse memo, the memoized parts) and compared with a
// clean build of the same content. "Clean": a fresh copy of the content (so the parse memo
// has nothing for it) into a fresh folder (no previous site, no page records), in a process
// where nothing is memoized across builds but the compiled schemas and the client bundle, which
// depend on the compiler alone (never on content) and which the test does not change. Both
// builds run in one long-lived child process, as `content dev` rebuilds.

// 120 edits: each of the 29 kinds once, then about three more of each at random, in whatever order the
// seed gives (the 240 of before took twice as long). Another seed or more edits, to
// look further: STUDIO_FUZZ_SEED=… STUDIO_FUZZ_EDITS=… npx vitest run tests/build/incremental-random.test.ts
const SEED = Number(process.env.STUDIO_FUZZ_SEED || 0x5eed16);
const EDITS = Number(process.env.STUDIO_FUZZ_EDITS || 120);
const TODAY = '2026-11-23';

// biome-ignore lint/suspicious/noExplicitAny: content data as YAML gives it
type Data = any;
/** The content as data: relative path → parsed YAML (null: the file is to be written as raw text). */
type State = Map<string, Data>;
/** Where the state keeps the build's settings: not a file. */
const SETTINGS = '#settings';
const files = (s: State) => [...s.keys()].filter((f) => f !== SETTINGS);
/** Pictures under content/images/ are kept in the state as `{ drawn: i }`: the i-th of DRAWINGS. */
const pictures = (s: State) => [...s.keys()].filter((f) => f.startsWith('images/'));
/** Drawings (tests/fixtures/images/photos.ts) large enough for a course's card and page, made once. */
let DRAWINGS: Buffer[] = [];
const ALT = { ru: 'Урок в студии', en: 'A lesson in the studio', de: 'Eine Stunde im Studio' };

const WORDS = ['новый', 'текст', 'neu', 'Kurs', 'fresh', 'music', 'group', 'Musik', 'занятие', '2–3', '&', '1 < 2', '"quoted"', 'it’s'];
const LOCALES = ['ru', 'en', 'de'] as const;

const isText = (v: Data) => v && typeof v === 'object' && !Array.isArray(v) && typeof v.ru === 'string';
function texts(value: Data, found: Data[] = []): Data[] {
  if (isText(value)) found.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) texts(v, found);
  return found;
}
const phrase = (rng: Rng) => Array.from({ length: 1 + rng.int(4) }, () => rng.pick(WORDS)).join(' ');
const courses = (s: State) => [...s.keys()].filter((f) => f.startsWith('courses/')).map((f) => f.slice(8, -5));
const teachers = (s: State) => [...s.keys()].filter((f) => f.startsWith('teachers/'));
const routes = (s: State) => s.get('routes.yaml').routes as Data[];
const swap = (list: Data[], rng: Rng) => {
  if (list.length < 2) return;
  const i = rng.int(list.length);
  const j = (i + 1 + rng.int(list.length - 1)) % list.length;
  [list[i], list[j]] = [list[j], list[i]];
};
/** Every string equal to `from` (a route, a link with its fragment) becomes `to`. */
function replaceStrings(value: Data, from: string, to: string): Data {
  if (typeof value === 'string') return value === from ? to : value.startsWith(`${from}#`) ? to + value.slice(from.length) : value;
  if (Array.isArray(value)) return value.map((v) => replaceStrings(v, from, to));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStrings(v, from, to)]));
  return value;
}
/** Drops every list item that holds (anywhere inside) one of `names`: what refers to a course that goes. */
function dropReferences(value: Data, names: Set<string>): Data {
  // An element that names it in itself goes (a route, a banner's link); one that only holds a list naming it (a price
  // category) stays, and loses just that item.
  const holds = (v: Data): boolean =>
    typeof v === 'string' ? names.has(v) : v && typeof v === 'object' && !Array.isArray(v) ? Object.values(v).some(holds) : false;
  if (Array.isArray(value)) return value.filter((v) => !holds(v)).map((v) => dropReferences(v, names));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, dropReferences(v, names)]));
  return value;
}
function removeCourse(s: State, key: string): void {
  const paths = routes(s)
    .filter((r) => r.course === key)
    .map((r) => r.path as string);
  s.delete(`courses/${key}.yaml`);
  for (const [file, data] of s) if (data !== null) s.set(file, dropReferences(data, new Set([key, ...paths])));
}

type Expect = 'ok' | 'fail' | 'either';
/** One kind of edit: changes the state in place, and says whether the content stays valid. */
type Edit = (s: State, rng: Rng) => Expect;

let added = 0;
const EDITS_BY_KIND: Record<string, Edit> = {
  'course text': (s, r) => text(s, r, `courses/${r.pick(courses(s))}.yaml`),
  'teacher text': (s, r) => text(s, r, r.pick(teachers(s))),
  'ui string': (s, r) => text(s, r, 'ui.yaml'),
  'other text': (s, r) =>
    text(s, r, r.pick(['site.yaml', 'routes.yaml', 'prices.yaml', 'faq.yaml', 'banners.yaml', 'form.yaml', 'schedule.yaml', 'legal.yaml'])),
  'missing translation': (s, r) => {
    const t = r.pick(texts(s.get(r.pick(files(s).filter((f) => texts(s.get(f)).length)))));
    delete t[r.pick(['en', 'de'])];
    return 'ok';
  },
  'photo on a course': (s, r) => {
    const course = s.get(`courses/${r.pick(courses(s))}.yaml`);
    const named = pictures(s);
    const file = named.length && r.next() < 0.6 ? r.pick(named) : `images/photo-${added++}.jpg`;
    if (!s.has(file)) s.set(file, { drawn: r.int(DRAWINGS.length) });
    course.image = { file: file.slice('images/'.length), alt: structuredClone(ALT), ...(r.next() < 0.5 && { focus: { x: r.int(101), y: r.int(101) } }) };
    return 'ok';
  },
  'photo bytes': (s, r) => {
    const named = pictures(s);
    if (!named.length) return EDITS_BY_KIND['photo on a course']!(s, r);
    const file = r.pick(named);
    s.set(file, { drawn: (s.get(file).drawn + 1 + r.int(DRAWINGS.length - 1)) % DRAWINGS.length });
    return 'ok';
  },
  'photo off a course': (s, r) => {
    const withPhoto = courses(s).filter((c) => s.get(`courses/${c}.yaml`).image);
    if (!withPhoto.length) return EDITS_BY_KIND['photo on a course']!(s, r);
    delete s.get(`courses/${r.pick(withPhoto)}.yaml`).image;
    return 'ok';
  },
  'invalid: photo missing': (s, r) => {
    s.get(`courses/${r.pick(courses(s))}.yaml`).image = { file: 'not-there.jpg', alt: structuredClone(ALT) };
    return 'fail';
  },
  price: (s, r) => {
    const items = (s.get('prices.yaml').categories as Data[]).flatMap((c) => c.items).filter((i: Data) => i.price?.amount !== undefined);
    const item = r.pick(items);
    item.price.amount = 1 + r.int(400);
    for (const c of courses(s)) {
      const course = s.get(`courses/${c}.yaml`);
      if (course.price?.ref === item.id) course.price.amount = item.price.amount;
    }
    return 'ok';
  },
  route: (s, r) => {
    const route = r.pick(routes(s).filter((x) => x.path !== '/'));
    const to = `/r${r.int(1000)}`;
    if (routes(s).some((x) => x.path === to)) return 'ok';
    for (const [file, data] of s) if (data !== null) s.set(file, replaceStrings(data, route.path, to));
    return 'ok';
  },
  'route order': (s, r) => {
    swap(routes(s), r);
    return 'ok';
  },
  'course order': (s, r) => {
    s.get(`courses/${r.pick(courses(s))}.yaml`).order = r.int(30);
    return 'ok';
  },
  'teacher order': (s, r) => {
    s.get(r.pick(teachers(s))).order = r.int(30);
    return 'ok';
  },
  'list order': (s, r) => {
    const lists = [s.get('faq.yaml').items, s.get('prices.yaml').categories, s.get('schedule.yaml').entries, s.get('banners.yaml').banners];
    swap(r.pick(lists), r);
    return 'ok';
  },
  menu: (s, r) => {
    const menu = s.get('site.yaml').menu as Data[];
    const choice = r.int(3);
    if (choice === 0) swap(menu, r);
    else if (choice === 1 && menu.length > 1) menu.splice(r.int(menu.length), 1);
    else menu.push({ id: `m${r.int(1e6)}`, label: { ru: phrase(r), en: phrase(r), de: phrase(r) }, link: r.pick(routes(s)).path });
    return 'ok';
  },
  'banner date': (s, r) => {
    const banner = r.pick(s.get('banners.yaml').banners as Data[]);
    const choice = r.int(4);
    if (choice === 0) delete banner.validUntil;
    else banner.validUntil = choice === 1 ? TODAY : choice === 2 ? '2026-11-22' : `2027-0${1 + r.int(9)}-1${r.int(10)}`;
    return 'ok';
  },
  'teacher courses': (s, r) => {
    const teacher = s.get(r.pick(teachers(s)));
    teacher.courses = r.next() < 0.5 && teacher.courses?.length ? teacher.courses.slice(1) : [...new Set([...(teacher.courses ?? []), r.pick(courses(s))])];
    return 'ok';
  },
  // A course page shows its teachers' names: the teachers it names are among its declared inputs.
  'course teachers': (s, r) => {
    const course = s.get(`courses/${r.pick(courses(s))}.yaml`);
    course.teachers = [r.pick(teachers(s)).slice('teachers/'.length, -'.yaml'.length)];
    return 'either'; // a teacher may list the courses they teach
  },
  // A field the course did not have: its page must show it (no list of what a page reads is kept by hand).
  'new course field': (s, r) => {
    const course = s.get(`courses/${r.pick(courses(s))}.yaml`);
    const field = r.pick(['languagesNote', 'rules', 'steps', 'headings'] as const);
    const text = () => ({ ru: phrase(r), en: phrase(r), de: phrase(r) });
    if (course[field] !== undefined && r.next() < 0.5) delete course[field];
    else if (field === 'languagesNote') course.languagesNote = text();
    else if (field === 'rules') course.rules = [text()];
    else if (field === 'steps') course.steps = [{ title: text(), text: text() }];
    else course.headings = { ...course.headings, [r.pick(['goal', 'trial', 'teacher'])]: text() };
    return 'ok';
  },
  // Read by the checks of the translations (and the validation), not shown on any page.
  translations: (s, r) => {
    const t = s.get('translations.yaml');
    t.sameInAllLanguages ??= [];
    const same = t.sameInAllLanguages as string[];
    if (same.length && r.next() < 0.5) same.splice(r.int(same.length), 1);
    else same.push(`Name ${r.int(1e6)}`);
    return 'either';
  },
  'setting: today': (s, r) => {
    s.get(SETTINGS).today = r.pick(['2026-11-22', TODAY, '2026-12-31', '2027-06-15']);
    return 'ok';
  },
  'setting: base url': (s, r) => {
    s.get(SETTINGS).baseUrl = r.pick(['https://example.org', 'https://studio.example/sub/', undefined]);
    return 'ok';
  },
  'form option': (s, r) => {
    const options = s.get('form.yaml').options as Data[];
    const choice = r.int(3);
    if (choice === 0) swap(options, r);
    else if (choice === 1) r.pick(options).label[r.pick(LOCALES)] = phrase(r);
    else r.pick(options).value = `v${r.int(1e6)}`;
    return 'ok';
  },
  'add course': (s, r) => {
    const key = `added${++added}`;
    const copy = structuredClone(s.get(`courses/${r.pick(courses(s))}.yaml`));
    copy.order = r.int(30);
    copy.title.ru = `Курс ${added}`;
    const path = `/added-${added}`;
    copy.route = path;
    s.set(`courses/${key}.yaml`, copy);
    routes(s).push({
      path,
      page: 'course',
      course: key,
      title: { ru: phrase(r), en: phrase(r), de: phrase(r) },
      description: { ru: phrase(r), en: phrase(r) },
    });
    if (r.next() < 0.5) s.get('form.yaml').options.push({ value: `added${added}`, course: key, label: { ru: phrase(r), en: phrase(r), de: phrase(r) } });
    return 'ok';
  },
  'delete course': (s, r) => {
    if (courses(s).length < 3) return 'ok';
    removeCourse(s, r.pick(courses(s)));
    return 'either'; // what else goes with it may leave a list too short
  },
  // Invalid: the build must fail and leave the site as it was.
  'invalid: price is text': (s, r) => {
    const course = s.get(`courses/${r.pick(courses(s))}.yaml`);
    course.price = { ...course.price, amount: 'ninety' };
    return 'fail';
  },
  'invalid: unknown course in route': (s, r) => {
    const route = r.pick(routes(s).filter((x) => x.page === 'course'));
    if (!route) return 'ok';
    route.course = 'noSuchCourse';
    return 'fail';
  },
  'invalid: required field removed': (s, r) => {
    delete s.get(`courses/${r.pick(courses(s))}.yaml`).goal;
    return 'fail';
  },
  'invalid: broken YAML': (s, r) => {
    s.set(r.pick(files(s).filter((f) => !f.startsWith('images/'))), null);
    return 'fail';
  },
  'invalid: duplicate route': (s, r) => {
    const list = routes(s);
    list.push({ ...structuredClone(r.pick(list)) });
    return 'fail';
  },
  'invalid: unknown teacher': (s, r) => {
    s.get(`courses/${r.pick(courses(s))}.yaml`).teachers = ['no-such-teacher'];
    return 'fail';
  },
};
function text(s: State, r: Rng, file: string): Expect {
  // A course's teacher written as text is a placeholder ("TODO: …"): any other text there names no teacher.
  const all = texts(file.startsWith('courses/') ? { ...s.get(file), teachers: undefined } : s.get(file));
  if (!all.length) return 'ok';
  const t = r.pick(all);
  const locale = r.pick(LOCALES);
  t[locale] = r.next() < 0.5 && t[locale] ? `${t[locale]} ${phrase(r)}` : phrase(r);
  return 'ok';
}

const BROKEN = 'key: [unclosed\n  - "no end\n';
const serialize = (data: Data) => (data === null ? BROKEN : stringify(data, { lineWidth: 0 }));

function writeState(dir: string, before: State, after: State): void {
  for (const file of files(after)) {
    const data = after.get(file);
    if (!before.has(file) || JSON.stringify(before.get(file)) !== JSON.stringify(data))
      writeFileSync(join(dir, file), file.startsWith('images/') ? DRAWINGS[data.drawn]! : serialize(data));
  }
  for (const file of files(before)) if (!after.has(file)) rmSync(join(dir, file));
}

type Settings = { today: string; baseUrl?: string };

/** The build process, and a queue of requests answered in order. */
class Builder {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];
  constructor() {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$|STUDIO_NO_CACHE$)/.test(k)));
    this.child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tests/helpers/build-driver.ts')], { cwd: ROOT, env: clean });
    this.child.stderr.on('data', (d) => process.stderr.write(d));
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
  }
  build(
    content: string,
    out: string,
    settings: Settings,
  ): Promise<{ ok: boolean; rendered?: number; pages?: number; fallbacks?: Record<string, number>; problems?: string[]; crashed?: string; cpuMs: number }> {
    return new Promise((resolve) => {
      this.waiting.push((line) => resolve(JSON.parse(line)));
      this.child.stdin.write(`${JSON.stringify({ content, out, ...settings })}\n`);
    });
  }
  close(): void {
    this.child.stdin.end();
  }
}

const work = mkdtempSync(join(tmpdir(), 'studio-incremental-'));
const content = join(work, 'content');
const site = join(work, 'site');
let builder: Builder;
let state: State;

beforeAll(async () => {
  cpSync(FIXTURE, content, { recursive: true });
  mkdirSync(join(content, 'images'), { recursive: true });
  DRAWINGS = await Promise.all([210, 20, 120].map((hue) => drawing(1280, 854, hue)));
  state = new Map();
  for (const dir of ['', 'courses/', 'teachers/'])
    for (const name of readdirSync(join(content, dir)).filter((n) => n.endsWith('.yaml')))
      state.set(dir + name, parse(readFileSync(join(content, dir, name), 'utf8')));
  // A smaller site keeps the builds quick: six courses are as good as twenty-four for this.
  // The choir stays: the schedule lists it alone, and a schedule needs an entry.
  const keep = ['chess', 'piano', 'vocal', 'choir', 'earlyDevelopment', 'englishKids'];
  for (const c of courses(state)) if (!keep.includes(c)) removeCourse(state, c);
  for (const name of readdirSync(join(content, 'courses'))) if (!state.has(`courses/${name}`)) rmSync(join(content, 'courses', name));
  for (const [file, data] of state) writeFileSync(join(content, file), serialize(data));
  state.set(SETTINGS, { today: TODAY });
  builder = new Builder();
}, 120_000);

afterAll(() => {
  builder?.close();
  rmSync(work, { recursive: true, force: true });
});

it(`rebuilds ${EDITS} random edits (seed ${SEED}) incrementally into the same bytes as a clean build`, async () => {
  const rng = seeded(SEED);
  const kinds = Object.keys(EDITS_BY_KIND);
  const first = await builder.build(content, site, state.get(SETTINGS));
  expect(first, JSON.stringify(first)).toMatchObject({ ok: true });
  let previous = snapshotDir(site);
  const seen: Record<string, { ok: number; failed: number }> = {};
  let reused = 0;
  let builderCpuMs = 0;
  const testCpu = process.cpuUsage();
  for (let step = 1; step <= EDITS; step++) {
    const kind = step <= kinds.length ? kinds[step - 1]! : rng.pick(kinds); // each kind once, then at random
    const next = new Map([...state].map(([f, d]) => [f, structuredClone(d)]));
    const expected = EDITS_BY_KIND[kind]!(next, rng);
    writeState(content, state, next);
    const result = await builder.build(content, site, next.get(SETTINGS));
    const where = `edit ${step} (${kind}, STUDIO_FUZZ_SEED=${SEED})`;
    builderCpuMs += result.cpuMs;
    expect(result.crashed, where).toBeUndefined();
    seen[kind] ??= { ok: 0, failed: 0 };
    if (!result.ok) {
      expect(expected, `${where}: ${result.problems?.join('; ')}`).not.toBe('ok');
      const after = snapshotDir(site);
      expect([...after.keys()], where).toEqual([...previous.keys()]);
      for (const [file, bytes] of previous) expect(after.get(file)!.equals(bytes), `${where}: ${file} changed by a failed build`).toBe(true);
      writeState(content, next, state); // back to the valid content
      seen[kind].failed++;
      continue;
    }
    expect(expected, where).not.toBe('fail');
    state = next;
    seen[kind].ok++;
    reused += result.pages! - result.rendered!;
    const fresh = mkdtempSync(join(tmpdir(), 'studio-clean-'));
    try {
      cpSync(content, join(fresh, 'content'), { recursive: true });
      const clean = await builder.build(join(fresh, 'content'), join(fresh, 'site'), state.get(SETTINGS));
      builderCpuMs += clean.cpuMs;
      // The pages taken over unresolved count their fallbacks as the pages resolved anew do.
      expect(clean, where).toMatchObject({ ok: true, rendered: result.pages, fallbacks: result.fallbacks });
      const incremental = snapshotDir(site);
      const reference = snapshotDir(join(fresh, 'site'));
      expect([...incremental.keys()], where).toEqual([...reference.keys()]);
      for (const [file, bytes] of reference) expect(incremental.get(file)!.equals(bytes), `${where}: ${file} differs from a clean build`).toBe(true);
      previous = incremental;
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      // Its page records too: the cache keeps the newest few folders' only, and the other test files' builds run meanwhile.
      rmSync(folderCacheFile('pages', join(fresh, 'site'), 'json'), { force: true });
    }
  }
  const own = process.cpuUsage(testCpu);
  console.log(
    `${EDITS} edits (STUDIO_FUZZ_SEED=${SEED}): ${JSON.stringify(seen)}; pages taken over ${reused}; CPU: builds ${builderCpuMs} ms, test ${Math.round((own.user + own.system) / 1000)} ms`,
  );
  // Every kind of edit was made and built; the invalid ones were refused; pages were reused.
  for (const kind of kinds) expect(seen[kind], kind).toBeDefined();
  for (const kind of kinds.filter((k) => k.startsWith('invalid'))) expect(seen[kind]!.failed, kind).toBeGreaterThan(0);
  for (const kind of [
    'add course',
    'delete course',
    'route',
    'price',
    'menu',
    'banner date',
    'form option',
    'new course field',
    'setting: today',
    'setting: base url',
    'photo on a course',
    'photo bytes',
  ])
    expect(seen[kind]!.ok, kind).toBeGreaterThan(0);
  expect(reused).toBeGreaterThan(0);
}, 600_000);
