import { z } from 'zod';
import { LocalizedLine, LocalizedText } from './localized.ts';

const LegalText = z.strictObject({
  sections: z.array(z.strictObject({ heading: LocalizedLine, body: z.array(LocalizedText).min(1) })).min(1),
});

export const LegalFile = z
  .strictObject({ impressum: LegalText, privacy: LegalText, terms: LegalText })
  .meta({ title: 'Legal texts', description: 'Impressum, privacy policy and terms.' });
export type LegalFile = z.infer<typeof LegalFile>;
