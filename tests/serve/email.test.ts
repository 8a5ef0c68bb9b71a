import { describe, expect, it } from 'vitest';
import { notification } from '../../cli/serve/mail/email.ts';
import type { EnquiryManifest } from '../../cli/serve/manifest.ts';
import type { StoredEnquiry } from '../../cli/serve/store/store.ts';

const manifest = { options: [{ value: 'music', label: 'Вокал' }], notify: { subject: { ru: 'Новая заявка' } } } as unknown as EnquiryManifest;

const enquiry = (overrides: Partial<StoredEnquiry>): StoredEnquiry => ({
  id: 7,
  receivedAt: '2026-11-23T10:00:00.000Z',
  name: 'Anna',
  course: 'music',
  message: 'Hello',
  email: 'anna@example.org',
  locale: 'ru',
  page: '/vocal',
  via: 'json',
  notify: true,
  ...overrides,
});

describe('the e-mail to the studio', () => {
  it('keeps a line break in a single-line field from making header-like lines in the text part', () => {
    for (const br of ['\r\n', '\n', '\r', '\u0085', '\u2028', '\u2029', '\u000b', '\u000c']) {
      const mail = notification(
        enquiry({ name: `Eve${br}Bcc: victim@example.org${br}Subject: hi`, page: `/vocal${br}To: x@example.org`, locale: `ru${br}Cc: y@example.org` }),
        manifest,
      );
      const lines = mail.text.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
      expect(lines.filter((l) => /^(Bcc|Cc|To|Subject):/i.test(l))).toEqual([]);
      expect(mail.text).toContain('Имя: Eve Bcc: victim@example.org Subject: hi\n');
      expect(mail.subject).not.toMatch(/[\r\n\u0085\u2028\u2029]/);
    }
  });

  it('keeps the line breaks of the message, which is meant to have them', () => {
    const mail = notification(enquiry({ message: 'Line one\nLine two' }), manifest);
    expect(mail.text).toContain('Сообщение:\nLine one\nLine two\n');
  });
});
