import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Rng, seeded } from '../helpers/random.ts';
import { type RawAnswer, rawGet, rawRequest, type ServeProcess, spawnServe, tempData } from '../helpers/serve.ts';

const dist = inject('siteDir');
const REQUESTS = 2400;
const PARALLEL = 12;
const SEED = 0x5eed_12;

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
/** Every percent-encoding of `/ \ . %` (both cases, doubly encoded, overlong UTF-8), controls, separators. */
const SPECIAL = ['/', '\\', '.', '%'].flatMap((c) => [c, hex(c), hex(c).toUpperCase(), `%25${hex(c).slice(1)}`, `%25${hex(c).slice(1).toUpperCase()}`]);
const OVERLONG = ['%C0%AF', '%C0%AE', '%C1%9C', '%E0%80%AF', '%E0%80%AE', '%F0%80%80%AF', '%C0%80', '%C1%81'];
const CONTROL_ESCAPES = [...Array.from({ length: 32 }, (_, i) => `%${i.toString(16).padStart(2, '0')}`), '%7F', '%C2%80', '%C2%85', '%C2%9B', '%C2%9F'];
const SEPARATORS = ['%E2%80%A8', '%E2%80%A9', '%E2%80%AE', '%E2%81%A6', '%C2%A0', '%E3%80%80', '%EF%BB%BF', '%09', '%20', '+'];
const RAW_BYTES = [
  '\t',
  '\x00',
  '\x01',
  '\x1b',
  '\x7f',
  '\r',
  '\n',
  '\xc0\xaf',
  '\xc0\xae',
  '\xe2\x80\xa8',
  '\xff',
  ' ',
  '"',
  '<',
  '>',
  '{',
  '}',
  '|',
  '^',
  '`',
  '#',
];
const WORDS = [
  'evil.com',
  'evil.com:80',
  '@evil.com',
  'vocal',
  'en',
  'de',
  'faq',
  'index.html',
  'vocal.html',
  '404.html',
  '.studio',
  'enquiry.json',
  '..',
  '.',
  'api',
  'enquiry',
  'assets',
  'http:',
  'https:',
  '',
  '?x=1',
  '?',
  '#frag',
  'Ünïcödé',
  '%G1',
  '%',
  '%2',
  ';x=1',
];
const TARGET_PREFIX = ['/', '//', '/\\', '\\', 'http://evil.com/', '*', '', '/./', '/../', '/%2F', '/%5C'];

function path(r: Rng): string {
  const parts = [r.pick(TARGET_PREFIX)];
  const n = 1 + r.int(6);
  for (let i = 0; i < n; i++) {
    const kind = r.int(10);
    parts.push(
      kind < 3
        ? r.pick(SPECIAL)
        : kind < 4
          ? r.pick(OVERLONG)
          : kind < 5
            ? r.pick(CONTROL_ESCAPES)
            : kind < 6
              ? r.pick(SEPARATORS)
              : kind < 7
                ? r.pick(RAW_BYTES)
                : r.pick(WORDS),
    );
    if (r.next() < 0.5) parts.push('/');
  }
  if (r.next() < 0.2) parts.push('/');
  return parts.join('');
}

const HEADER_NAMES = [
  'accept-encoding',
  'accept-language',
  'if-none-match',
  'origin',
  'x-forwarded-for',
  'x-forwarded-proto',
  'referer',
  'cookie',
  'range',
  'content-type',
  'x-junk',
];
function headerValue(r: Rng): string {
  const parts: string[] = [];
  for (let i = 0, n = 1 + r.int(4); i < n; i++)
    parts.push(
      r.pick([
        ...RAW_BYTES,
        ...SPECIAL,
        'br',
        'gzip;q=0',
        '*',
        'de-DE',
        'http://evil.com',
        'null',
        '"etag"',
        'W/"x"',
        'bytes=0-1',
        '1.2.3.4, 5.6.7.8',
        'application/json',
        'text/html; charset=utf-7',
        '\u2028',
        'é',
      ]),
    );
  return parts.join(r.pick(['', ' ', ',', ';', '\t']));
}

function body(r: Rng): { type: string; bytes: Buffer } {
  const field = () =>
    Array.from({ length: 1 + r.int(5) }, () =>
      r.pick([...RAW_BYTES, ...SPECIAL, ...OVERLONG, 'Anna', 'music', 'a@b.de', '\u2028', '\u202e', '<script>', 'ë']),
    ).join('');
  const kind = r.int(4);
  if (kind === 0) {
    const fields = {
      name: field(),
      course: r.pick(['music', field()]),
      email: r.pick(['a@b.de', field()]),
      message: field(),
      locale: r.pick(['ru', 'en', 'de', field()]),
      fillMs: r.pick([12_000, -1, 1e308, field(), null]),
      website: r.pick(['', field()]),
    };
    return { type: 'application/json', bytes: Buffer.from(JSON.stringify(fields)) };
  }
  if (kind === 1)
    return {
      type: 'application/x-www-form-urlencoded',
      bytes: Buffer.from(
        `name=${field()}&course=${r.pick(['music', field()])}&email=a%40b.de&locale=${field()}&thanks=${r.pick(['//evil.com', '/%2Fevil.com', field()])}`,
        'latin1',
      ),
    };
  if (kind === 2)
    return { type: r.pick(['application/json', 'application/x-www-form-urlencoded; charset=utf-8', 'text/plain', '']), bytes: Buffer.from(field(), 'latin1') };
  return { type: 'application/json', bytes: Buffer.from([...Array.from({ length: r.int(64) }, () => r.int(256))]) };
}

function request(r: Rng, host: string): Buffer {
  const post = r.next() < 0.3;
  const method = post ? 'POST' : r.pick(['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']);
  const target = post && r.next() < 0.7 ? `/api/enquiry${r.pick(['', '', '/', '?x', '%0A', '%2F'])}` : path(r);
  const headers: [string, string][] = [['host', r.next() < 0.9 ? host : headerValue(r)]];
  for (let i = 0, n = r.int(4); i < n; i++) headers.push([r.pick(HEADER_NAMES), headerValue(r)]);
  let payload: Buffer = Buffer.alloc(0);
  if (post) {
    const b = body(r);
    payload = b.bytes;
    if (b.type) headers.push(['content-type', b.type]);
    if (r.next() < 0.7) headers.push(['origin', `http://${host}`]);
  }
  headers.push(['content-length', String(payload.length)], ['connection', 'close']);
  const head = `${method} ${target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/** Issue 12: at least 2,000 generated hostile requests over real TCP, then the server still answers and nothing sent a visitor away. */
describe('content serve: fuzzed requests', () => {
  let server: ServeProcess;
  const data = tempData();
  beforeAll(async () => {
    server = await spawnServe(['--out', dist, '--data', data.dir, '--rate-limit', '0']);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    data.cleanup();
  });

  it(`survives ${REQUESTS} generated requests and never redirects off the site`, async () => {
    const host = new URL(server.url).host;
    const origin = new URL(server.url).origin;
    const r = seeded(SEED);
    const requests = Array.from({ length: REQUESTS }, () => request(r, host));
    const answers: { sent: Buffer; answer: RawAnswer }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < requests.length) {
          const sent = requests[next++]!;
          answers.push({ sent, answer: await rawRequest(server.url, sent) });
        }
      }),
    );
    expect(answers).toHaveLength(REQUESTS);
    const offSite = answers.filter(({ answer }) =>
      answer.headers.some(([k, v]) => k === 'location' && (!/^\/(?![/\\])[\x21-\x7e]*$/.test(v) || new URL(v, server.url).origin !== origin)),
    );
    expect(offSite.map(({ sent, answer }) => `${sent.toString('latin1').split('\r\n')[0]} → ${answer.statusLine}`)).toEqual([]);
    // Every request got an HTTP answer (a malformed one a 400 from the parser), none a 5xx.
    const unanswered = answers.filter(({ answer }) => answer.status === 0);
    expect(unanswered.length, unanswered.map(({ sent }) => JSON.stringify(sent.toString('latin1').slice(0, 120))).join('\n')).toBe(0);
    const failed = answers.filter(({ answer }) => answer.status >= 500);
    expect(failed.map(({ sent, answer }) => `${JSON.stringify(sent.toString('latin1').slice(0, 160))} → ${answer.statusLine}`)).toEqual([]);
    // The variety is real: many kinds of answer came back.
    expect(new Set(answers.map(({ answer }) => answer.status)).size).toBeGreaterThanOrEqual(6);

    expect(server.child.exitCode).toBeNull();
    expect((await rawGet(server.url, '/vocal')).status).toBe(200);
    expect((await rawGet(server.url, '/vocal/')).headers.find(([k]) => k === 'location')?.[1]).toBe('/vocal');
  });
});
