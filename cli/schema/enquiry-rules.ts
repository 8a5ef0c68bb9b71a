// The enquiry's limits and the rules the browser checks, apart from the zod shape in enquiry.ts,
// so that the build does not load zod for them. `enquiryRules()` there derives the same rules
// from the shape; tests/schema/enquiry-rules.test.ts fails when the two drift apart.

export const ENQUIRY_LIMITS = { name: 200, message: 5000, email: 254, phone: 30 } as const;

/** Deliberately simple: one @, no spaces, a dot in the domain. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

/**
 * A phone number as people write one: digits, spaces and + ( ) - / . only, with at least five
 * digits ("+49 (0)30 123-45", "8 900 123.45.67"). Empty is no phone (the field is optional).
 */
export const PHONE_PATTERN = '^$|^(?=(?:[^0-9]*[0-9]){5})[0-9 +()/.-]+$';

/**
 * The fields a visitor fills in, in the order of the form, and how each is written (`privacy`:
 * the form's privacy note describes it, as it says what is done with a contact address). The
 * hydrated form (templates/form), the server's no-JavaScript form page (cli/serve/http/answer.ts)
 * and the server's field labels are made from this list; whether a field is required comes
 * from the enquiry schema (`ENQUIRY_RULES.required`).
 */
export const FORM_FIELDS = [
  { name: 'name', control: 'input', type: 'text', autocomplete: 'name' },
  { name: 'course', control: 'select' },
  { name: 'message', control: 'textarea' },
  { name: 'email', control: 'input', type: 'email', autocomplete: 'email', privacy: true },
  { name: 'phone', control: 'input', type: 'tel', autocomplete: 'tel', privacy: true },
] as const;
export type FormFieldName = (typeof FORM_FIELDS)[number]['name'];

/**
 * Compiles only when `Missing` is `never`. `allListed<Exclude<keyof A, B>>()` makes the type
 * checker name each field of A that a hand-kept list B lacks, so a new field cannot be left out
 * of it unnoticed.
 */
export function allListed<_Missing extends never>(): void {}

/** What the browser needs to check an enquiry (the form's `rules`). */
export const ENQUIRY_RULES = {
  required: ['name', 'course', 'email'] as ('name' | 'course' | 'email')[],
  maxLength: { name: ENQUIRY_LIMITS.name, message: ENQUIRY_LIMITS.message, email: ENQUIRY_LIMITS.email, phone: ENQUIRY_LIMITS.phone },
  emailPattern: EMAIL_PATTERN,
  phonePattern: PHONE_PATTERN,
};
