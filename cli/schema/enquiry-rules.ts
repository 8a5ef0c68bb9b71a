// The enquiry's limits and the rules the browser checks, apart from the zod shape in enquiry.ts,
// so that the build does not load zod for them. `enquiryRules()` there derives the same rules
// from the shape; tests/schema/enquiry-rules.test.ts fails when the two drift apart.

export const ENQUIRY_LIMITS = { name: 200, message: 5000, email: 254 } as const;

/** Deliberately simple: one @, no spaces, a dot in the domain. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

/** What the browser needs to check an enquiry (the form's `rules`). */
export const ENQUIRY_RULES = {
  required: ['name', 'course', 'email'] as ('name' | 'course' | 'email')[],
  maxLength: { name: ENQUIRY_LIMITS.name, message: ENQUIRY_LIMITS.message, email: ENQUIRY_LIMITS.email },
  emailPattern: EMAIL_PATTERN,
};
