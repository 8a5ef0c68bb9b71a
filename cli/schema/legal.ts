import { z } from 'zod';
import { LocalizedLine, LocalizedText } from './localized.ts';

const LegalText = z.strictObject({
  sections: z.array(z.strictObject({ heading: LocalizedLine, body: z.array(LocalizedText).min(1) })).min(1),
});

export { DEFAULT_KEEP_DAYS, keepDaysOf, LEGAL_VARIABLES } from './keep-days.ts';

export const LegalFile = z
  .strictObject({ impressum: LegalText, privacy: LegalText, terms: LegalText })
  .meta({ title: 'Legal texts', description: 'Impressum, privacy policy and terms.' });
export type LegalFile = z.infer<typeof LegalFile>;
