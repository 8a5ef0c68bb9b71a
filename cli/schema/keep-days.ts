// What the legal texts and the server say of how long enquiries are kept, without the schemas
// (zod): read by every build and by the server, which need no schema to read it.

/** The variables a legal text may hold, filled in from the site facts (cli/resolve/pages/legal.ts). */
export const LEGAL_VARIABLES = ['keepDays'] as const;

/**
 * How long enquiries are kept by default: 180 days (about six months). An enquiry is kept to
 * answer it; one that leads to a contract moves into the studio's customer records, one that
 * does not is no longer needed once it is answered and a follow-up or a question about it has
 * had time to come (a school term). The GDPR (Art. 5(1)(e)) asks for a set period, not forever.
 */
export const DEFAULT_KEEP_DAYS = 180;

/** The retention period the site states and the server applies: site.yaml form.keepDays, else the default. */
export const keepDaysOf = (site: { form: { keepDays?: number | undefined } }): number => site.form.keepDays ?? DEFAULT_KEEP_DAYS;
