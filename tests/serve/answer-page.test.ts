import { HtmlValidate } from 'html-validate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serveSite } from '../helpers/serve.ts';

/** The page `content serve` answers a plain form post with (cli/serve/http/answer.ts), under hostile input. */

const dist = inject('siteDir');
let base: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 } });
  base = server.url;
  stop = server.stop;
});
afterAll(() => stop?.());

function postForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/enquiry`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

const refused = { name: '"><script>alert(1)</script>', course: 'piano', message: '</textarea><img src=x onerror=alert(1)>', email: 'no@dot', locale: 'en' };

describe('the answer page of a refused plain form post', () => {
  it('shows what was sent again, escaped, in the visitor’s language', async () => {
    const res = await postForm(refused);
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('&lt;/textarea&gt;&lt;img src=x onerror=alert(1)&gt;</textarea>');
    expect(html).toContain('<option value="piano" selected>Piano lessons</option>');
    expect(html).toContain('<header class="site-header">');
    const report = await new HtmlValidate({
      extends: ['html-validate:standard'],
      rules: { 'no-inline-style': 'error', 'long-title': 'off', 'attribute-boolean-style': 'off', 'void-style': 'off' },
    }).validateString(html, 'answer.html');
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.message}`))).toEqual([]);
  });

  it('leads back to the page the form was sent from, and only to a page of this site', async () => {
    const back = async (referer: string | undefined, locale = 'de') => {
      const html = await (await postForm({ ...refused, locale }, referer ? { referer } : {})).text();
      return /<a class="button" href="([^"]*)">/.exec(html)?.[1];
    };
    expect(await back(`${base}/de/piano-lessons`)).toBe('/de/piano-lessons#enquiry');
    expect(await back(undefined)).toBe('/de#enquiry');
    expect(await back(undefined, 'ru')).toBe('/#enquiry');
    expect(await back('https://evil.example/de/piano-lessons')).toBe('/de#enquiry');
    expect(await back(`${base}/api/enquiry`)).toBe('/de#enquiry');
    expect(await back(`${base}//evil.example/x`)).toBe('/de#enquiry');
    expect(await back('not a url')).toBe('/de#enquiry');
    expect(await back(`${base}/de/x"><script>`)).toBe('/de/x%22%3E%3Cscript%3E#enquiry');
  });
});
