import { allListed } from '../../schema/enquiry-rules.ts';
import type { StoredEnquiry } from './store.ts';

/**
 * The fields of a stored enquiry besides `id` and `receivedAt`, in the order a record is
 * written (the file inbox's JSON lines, backups, exports), each with its SQLite column. The
 * SQLite and PostgreSQL stores derive their inserts and their reading of rows from this list,
 * so a new field is one entry here, one in `StoredRecord` below and one migration per store;
 * the checks after `StoredRecord` make the type checker name any of them that is missing.
 */
export const ENQUIRY_FIELDS = [
  { key: 'name', column: 'name', kind: 'text' },
  { key: 'course', column: 'course', kind: 'text' },
  { key: 'message', column: 'message', kind: 'text' },
  { key: 'email', column: 'email', kind: 'text' },
  { key: 'phone', column: 'phone', kind: 'optional' },
  { key: 'locale', column: 'locale', kind: 'text' },
  { key: 'page', column: 'page', kind: 'optional' },
  { key: 'idempotencyKey', column: 'idempotency_key', kind: 'optional' },
  { key: 'via', column: 'via', kind: 'text' },
  { key: 'notify', column: 'notify', kind: 'boolean' },
  { key: 'spam', column: 'spam', kind: 'optional' },
] as const satisfies readonly { key: keyof StoredEnquiry; column: string; kind: 'text' | 'optional' | 'boolean' }[];

/** The columns of `ENQUIRY_FIELDS`, for an INSERT. */
export const ENQUIRY_COLUMNS = ENQUIRY_FIELDS.map((f) => f.column);

type Row = Record<string, unknown>;

/** A row of the enquiries table as a record, its fields in the order of ENQUIRY_FIELDS (absent optional fields left out). */
export function recordFromRow(row: Row): StoredEnquiry {
  const record: Record<string, unknown> = { id: Number(row.id), receivedAt: row.received_at };
  for (const f of ENQUIRY_FIELDS) {
    const value = row[f.column];
    if (f.kind === 'boolean') record[f.key] = value === 1 || value === 1n || value === true;
    else if (f.kind === 'text' || value != null) record[f.key] = value;
  }
  return record as unknown as StoredEnquiry;
}

/** The values of a record for the columns of ENQUIRY_COLUMNS, in that order; a flag as 0 or 1 (SQLite) or as a boolean (PostgreSQL). */
export function rowValues(e: Omit<StoredEnquiry, 'id' | 'receivedAt'>): (string | number | null)[];
export function rowValues(e: Omit<StoredEnquiry, 'id' | 'receivedAt'>, flags: 'boolean'): (string | boolean | null)[];
export function rowValues(e: Omit<StoredEnquiry, 'id' | 'receivedAt'>, flags: 'integer' | 'boolean' = 'integer'): (string | number | boolean | null)[] {
  return ENQUIRY_FIELDS.map((f) => {
    const value = e[f.key];
    if (f.kind === 'boolean') return flags === 'boolean' ? !!value : value ? 1 : 0;
    return value === undefined ? null : (value as string);
  });
}

/**
 * The type checker's part in "one declaration per field": a field of `StoredEnquiry` that
 * `ENQUIRY_FIELDS` (the columns of both stores) lacks is a compile error naming it (the same
 * check for the form's `Enquiry` and for `StoredRecord` is in stored-record.ts).
 */
type Missing<Of, In> = Exclude<keyof Of, keyof In>;
allListed<Missing<Omit<StoredEnquiry, 'id' | 'receivedAt'>, { [F in (typeof ENQUIRY_FIELDS)[number] as F['key']]: F }>>();

/**
 * An address as `show` and `erase` compare it: each letter lower-cased where that is only a
 * change of case, i.e. where upper-casing the result gives the letter back. So "Anna@Example.ORG"
 * is "anna@example.org", but the Kelvin sign (U+212A) stays itself and is never "k", and the
 * dotted capital I (U+0130) is never "i".
 */
export function foldAddress(address: string): string {
  let folded = '';
  for (const c of address) {
    const lower = c.toLowerCase();
    folded += lower !== c && lower.toUpperCase() === c ? lower : c;
  }
  return folded;
}
