import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { INBOX_FILE, Inbox } from './inbox.ts';
import { type AdminAnswers, type AdminRequest, askOwner, carryOut } from './inbox-admin.ts';
import { LOCK_FILE } from './inbox-lock.ts';

/**
 * Carries out `request` on the file inbox in `dir`: through the `content serve` that holds it,
 * or, with none running, by taking the inbox's lock for the moment it takes.
 */
export async function onFileInbox<R extends AdminRequest>(dir: string, request: R): Promise<AdminAnswers[R['op']]> {
  if (!existsSync(join(dir, INBOX_FILE)))
    throw new UsageError(`there is no enquiry inbox in ${dir}`, 'give the directory "content serve" was started with, with --data');
  for (let attempt = 0; ; attempt++) {
    if (existsSync(join(dir, LOCK_FILE))) {
      const asked = await askOwner(dir, request);
      if (asked) return asked.answer;
    }
    let inbox: Inbox;
    try {
      inbox = await Inbox.open(dir, { answerRequests: false });
    } catch (error) {
      if (error instanceof UsageError && attempt < 2) continue; // a server started just then: ask it
      if (error instanceof UsageError)
        throw new UsageError(
          `${error.message}, and it does not answer requests`,
          'run this command as the user it runs as (it cannot read a request from another user), or it is older than this command: stop it, then run the command again',
        );
      throw error;
    }
    try {
      return await carryOut(inbox, request);
    } finally {
      await inbox.close();
    }
  }
}
