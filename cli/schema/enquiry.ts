import { z } from 'zod';
import { DEFAULT_LOCALE, LOCALES } from '../locales.ts';
import { allListed, EMAIL_PATTERN, ENQUIRY_LIMITS, type FormFieldName, PHONE_PATTERN } from './enquiry-rules.ts';

export { EMAIL_PATTERN, ENQUIRY_LIMITS, PHONE_PATTERN };

/**
 * One enquiry as the form sends it and the server stores it. The browser gets the rules
 * derived from this (see `enquiryRules`), not zod itself.
 */
export const Enquiry = z.strictObject({
  name: z.string().trim().min(1).max(ENQUIRY_LIMITS.name),
  course: z.string().min(1),
  message: z.string().max(ENQUIRY_LIMITS.message).default(''),
  email: z.string().trim().min(1).max(ENQUIRY_LIMITS.email).regex(new RegExp(EMAIL_PATTERN)),
  /** Optional; left empty in the form, it is not stored at all. */
  phone: z
    .string()
    .trim()
    .max(ENQUIRY_LIMITS.phone)
    .regex(new RegExp(PHONE_PATTERN))
    .optional()
    .transform((v) => v || undefined),
  locale: z.enum(LOCALES).default(DEFAULT_LOCALE),
  page: z.string().max(200).optional(),
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
});
export type Enquiry = z.infer<typeof Enquiry>;

/** What the server adds to what a visitor fills in; every other field of `Enquiry` is in the form (`FORM_FIELDS`), or this does not compile. */
type NotFilledIn = 'locale' | 'page' | 'idempotencyKey';
allListed<Exclude<Exclude<keyof Enquiry, NotFilledIn>, FormFieldName>>();

/** What the browser needs to check an enquiry, derived from `Enquiry` (no zod in the bundle). */
export function enquiryRules() {
  const json = z.toJSONSchema(Enquiry, { io: 'input' }) as {
    required?: string[];
    properties: Record<string, { maxLength?: number; pattern?: string }>;
  };
  const fields = ['name', 'course', 'email'] as const;
  return {
    required: fields.filter((f) => json.required?.includes(f)),
    maxLength: {
      name: json.properties.name!.maxLength!,
      message: json.properties.message!.maxLength!,
      email: json.properties.email!.maxLength!,
      phone: json.properties.phone!.maxLength!,
    },
    emailPattern: EMAIL_PATTERN,
    phonePattern: json.properties.phone!.pattern!,
  };
}
