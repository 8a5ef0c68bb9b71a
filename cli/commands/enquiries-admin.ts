import type { Logger } from '../logger.ts';
import { UsageError } from '../report/problem.ts';
import { EXIT } from './common.ts';
import { change, storeName } from './enquiries-store.ts';
import type { AdminOptions } from './enquiries-usage.ts';

/** Enquiry numbers as typed: whole numbers from 1, each once. */
export function parseIds(given: readonly string[]): number[] {
  const ids = given.map((text) => {
    const n = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= 1))
      throw new UsageError(`${JSON.stringify(text).slice(0, 40)} is not an enquiry number`, 'give the numbers "content enquiries list" shows, e.g. 57');
    return n;
  });
  return [...new Set(ids)];
}

const SAYS = {
  restore: {
    done: (id: number) => `enquiry ${id} restored: no longer suspected spam; its e-mail to the studio is queued`,
    'not-applicable': (id: number) => `enquiry ${id} is not kept aside as suspected spam; nothing to restore`,
  },
  resend: {
    done: (id: number) => `the e-mail for enquiry ${id} is queued again`,
    'not-applicable': (id: number) => `the e-mail for enquiry ${id} has not failed (it was sent, is still owed, or none is asked for); nothing to resend`,
  },
} as const;

/** `content enquiries restore ID…` and `content enquiries resend ID…`. Exit 1 when an id was not found. */
export async function adminCommand(op: 'restore' | 'resend', given: string[], opts: AdminOptions, log: Logger): Promise<number> {
  const ids = parseIds(given);
  let missing = 0;
  for (const id of ids) {
    const result = await change(opts, { op, id });
    if (result === 'not-found') {
      missing++;
      log.warn(`there is no enquiry ${id} in ${storeName(opts)}`);
    } else log.info(SAYS[op][result](id));
  }
  return missing ? EXIT.content : EXIT.ok;
}
