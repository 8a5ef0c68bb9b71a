// What "content serve" takes from the built site only when it starts, compared between the site
// online before a publish and the new one (deploy/publish.sh; docs/deploy.md, "Publishing"):
//
//   node restart-needed.mjs BEFORE AFTER      (two built sites)
//
// Prints one line per difference ("the languages: ru en de → ru en") and nothing when there is
// none. Everything else of a new site (its pages, the form's course options and texts) a running
// server follows by itself, so a publish that changes only those restarts nothing. The list is the
// one cli/serve/ reads once: the route of the form (fastify's routes are fixed once it listens),
// the languages, the studio's e-mail address and name as the e-mails' sender (cli/commands/serve.ts)
// and the retention period.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FACTS = {
  "the form's address": (m) => m.endpoint,
  'the languages': (m) => (Array.isArray(m.locales) ? m.locales.join(' ') : undefined),
  "e-mail to the studio": (m) => (m.notify ? (m.notify.to ?? 'a placeholder address') : 'none'),
  // The sender's name of those e-mails (unless STUDIO_SMTP_FROM gives another).
  "the studio's name in e-mails to the studio": (m) => (m.notify ? m.siteName : undefined),
  'how long enquiries are kept': (m) => (m.keepDays === undefined ? 'not stated' : `${m.keepDays} days`),
};

/** The form rules "content build" wrote into a site (cli/serve/manifest.ts), if they can be read. */
function rulesOf(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, '.studio', 'enquiry.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

const [beforeDir, afterDir] = process.argv.slice(2);
if (!beforeDir || !afterDir) {
  console.error('usage: node restart-needed.mjs BEFORE AFTER');
  process.exit(2);
}
const [before, after] = [rulesOf(beforeDir), rulesOf(afterDir)];
if (!before || !after) console.log(`the form rules of ${before ? afterDir : beforeDir} cannot be read (.studio/enquiry.json)`);
else
  for (const [what, of] of Object.entries(FACTS)) {
    const [was, is] = [of(before), of(after)];
    if (was !== is) console.log(`${what}: ${was} → ${is}`);
  }
