import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

const dist = inject('siteDir');

/** The JSON-LD objects of a built page. */
function jsonLd(file: string): Record<string, unknown>[] {
  const html = readFileSync(join(dist, file), 'utf8');
  const data = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!);
  return Array.isArray(data) ? data : [data];
}

describe('structured data of the built site', () => {
  it('names one organization with one URL on the home page of every language; a course names it as its provider', () => {
    const orgs = ['index.html', 'en.html', 'de.html'].map((f) => jsonLd(f).find((o) => o['@type'] === 'EducationalOrganization')!);
    expect(new Set(orgs.map((o) => `${o['@id']} ${o.url}`)).size).toBe(1);
    expect(String(orgs[0]!['@id'])).toBe(`${orgs[0]!.url}#organization`);
    // Google's course rich results require the provider's type and name on the course page itself (the name once the studio has one).
    const course = jsonLd('en/vocal.html').find((o) => o['@type'] === 'Course')!;
    expect(course.provider).toEqual({ '@type': 'EducationalOrganization', '@id': orgs[0]!['@id'], name: orgs[0]!.name });
    // Every other page leaves the organization to the home page.
    for (const f of ['en/vocal.html', 'de/faq.html']) expect(jsonLd(f).map((o) => o['@type'])).not.toContain('EducationalOrganization');
  });

  it('says what the page says: a "from" price as the lowest price, a monthly fee per month, no name while the studio has none', () => {
    const course = (file: string) => jsonLd(file).find((o) => o['@type'] === 'Course')!;
    // "from €300": the lowest price, not the price.
    expect(course('en/recording.html').offers).toEqual({
      '@type': 'Offer',
      category: 'Paid',
      priceCurrency: 'EUR',
      priceSpecification: { '@type': 'PriceSpecification', minPrice: 300, priceCurrency: 'EUR' },
    });
    expect(course('de/online-consultation.html').offers).toMatchObject({ priceSpecification: { minPrice: 70 } });
    expect(course('de/online-consultation.html').offers).not.toHaveProperty('price');
    expect(course('vocal.html').offers).toMatchObject({ price: 180, priceSpecification: { unitCode: 'MON', price: 180 } });
    // The studio's name is still a placeholder in site.yaml: neither the organization nor a provider names it.
    expect(jsonLd('de.html')[0]).not.toHaveProperty('name');
    expect(course('de/vocal.html').provider).not.toHaveProperty('name');
  });

  it('gives a course the schedule the studio states (choir: 60 minutes, twice a month), and none it does not', () => {
    const course = (file: string) => jsonLd(file).find((o) => o['@type'] === 'Course')!;
    // Twice a month: no repeatCount (schema.org counts the occurrences in all); no courseMode, which SPEC does not give.
    expect(course('en/choir.html').hasCourseInstance).toEqual([{ '@type': 'CourseInstance', courseSchedule: { '@type': 'Schedule', duration: 'PT60M' } }]);
    // SPEC.md gives no lesson length, frequency or mode for dance.
    expect(course('de/dancinglessons.html').hasCourseInstance).toBeUndefined();
    // No teaching language is stated for dance either: no inLanguage rather than a guess.
    expect(course('de/dancinglessons.html').inLanguage).toBeUndefined();
    expect(course('malen-basteln.html').inLanguage).toEqual(['de']);
  });
});
