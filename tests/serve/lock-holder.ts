// One contender for an inbox, as a process of its own (for inbox-lock.test.ts): at `startAt`
// (ms since the epoch) it opens the inbox in `dir`, prints OWN <pid>, stores one enquiry and
// prints STORED <id>, then holds the inbox until its standard input ends, and closes it.
// Prints REFUSED … (exit 2) when another server holds the inbox.
import { UsageError } from '../../cli/report/problem.ts';
import { Inbox } from '../../cli/serve/inbox.ts';

const [dir, startAt] = [process.argv[2]!, Number(process.argv[3] ?? 0)];
const released = new Promise((r) => process.stdin.on('end', r).on('close', r).resume());
await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
try {
  const inbox = await Inbox.open(dir);
  console.log(`OWN ${process.pid}`);
  const { enquiry } = await inbox.add({
    name: `Holder ${process.pid}`,
    course: 'music',
    message: `from ${process.pid} at ${Date.now()}`,
    email: 'holder@example.org',
    locale: 'ru',
    via: 'json',
    notify: false,
  });
  console.log(`STORED ${enquiry.id}`);
  await released;
  await inbox.close();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.log(`REFUSED ${error.message}`);
  process.exit(2);
}
