// The zod schema of a stored enquiry, apart from enquiry-record.ts: only what takes records in from
// outside (a restore, the import of an old file inbox) loads zod; serve's store and the commands
// that read or erase do not (a command starts that much sooner, issue 36).
import { z } from 'zod';
import { Enquiry } from '../../schema/enquiry.ts';
import { allListed } from '../../schema/enquiry-rules.ts';
import type { StoredEnquiry } from './store.ts';

/**
 * A stored enquiry as a record that comes from outside the running server (a backup, an old
 * file inbox): what the form accepts (`Enquiry`, without its trimming or defaults, as stored),
 * plus what the server adds. A record that fails this is never taken in.
 */
export const StoredRecord = z.strictObject({
  id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  receivedAt: z.iso.datetime(),
  name: z
    .string()
    .min(1)
    .max(Enquiry.shape.name.maxLength ?? 200),
  course: z.string().min(1),
  message: z.string(),
  email: z
    .string()
    .min(1)
    .max(Enquiry.shape.email.maxLength ?? 254),
  phone: Enquiry.shape.phone,
  locale: z.string().min(1).max(16),
  page: z.string().max(200).optional(),
  idempotencyKey: Enquiry.shape.idempotencyKey,
  via: z.enum(['json', 'form']),
  notify: z.boolean(),
  spam: z.enum(['honeypot', 'too_fast']).optional(),
});

/**
 * The type checker's part in "one declaration per field": a field of the form's `Enquiry` that
 * `StoredEnquiry` lacks, a field of `StoredEnquiry` that `StoredRecord` (backups, imports) lacks,
 * is a compile error naming it (ENQUIRY_FIELDS is checked in enquiry-record.ts).
 */
type Missing<Of, In> = Exclude<keyof Of, keyof In>;
allListed<Missing<Enquiry, StoredEnquiry>>();
allListed<Missing<StoredEnquiry, z.infer<typeof StoredRecord>>>();

/** Why `value` is not a stored enquiry, in one line (undefined: it is one). */
export function recordProblem(value: unknown): string | undefined {
  const result = StoredRecord.safeParse(value);
  if (result.success) return undefined;
  return result.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'the record'}: ${i.message}`)
    .join('; ');
}
