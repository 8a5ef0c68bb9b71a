import { z } from 'zod';
import { DEFAULT_KEEP_DAYS } from '../serve/personal-data/retention.ts';
import { LocalizedLine, LocalizedText } from './localized.ts';

const LegalText = z.strictObject({
  sections: z.array(z.strictObject({ heading: LocalizedLine, body: z.array(LocalizedText).min(1) })).min(1),
});

/** The variables a legal text may hold, filled in from the site facts (cli/resolve/pages/legal.ts). */
export const LEGAL_VARIABLES = ['keepDays'] as const;

/** The retention period the site states and the server applies: site.yaml form.keepDays, else the default. */
export const keepDaysOf = (site: { form: { keepDays?: number | undefined } }): number => site.form.keepDays ?? DEFAULT_KEEP_DAYS;

export const LegalFile = z
  .strictObject({ impressum: LegalText, privacy: LegalText, terms: LegalText })
  .meta({ title: 'Legal texts', description: 'Impressum, privacy policy and terms.' });
export type LegalFile = z.infer<typeof LegalFile>;
