import { formatOption } from './common.ts';
import { defineCommand, type OptionsOf } from './option-table.ts';

/**
 * The `content enquiries` commands that change the store or speak of one person (restore,
 * resend, show, erase, backup, restore-backup), declared as in usage.ts.
 */

const store = {
  data: { flag: '--data <dir>', description: 'the folder of the enquiry database (enquiries.db)', default: '.enquiries' },
  database: { flag: '--database <url>', description: 'PostgreSQL instead (or STUDIO_DATABASE_URL; the password in PGPASSWORD)' },
} as const;
const person = {
  email: { flag: '--email <address>', description: 'every enquiry sent with this e-mail address (upper and lower case alike)' },
  id: { flag: '--id <n...>', description: 'these enquiries, by number' },
} as const;

export const ENQUIRIES_RESTORE = defineCommand({
  name: 'restore',
  description: 'Take enquiries kept aside as suspected spam back among the others; their e-mail to the studio is then sent.',
  options: store,
});
export const ENQUIRIES_RESEND = defineCommand({
  name: 'resend',
  description: 'Send again the e-mails to the studio the mail server refused (marked failed in "content enquiries list").',
  options: store,
});
export type AdminOptions = OptionsOf<typeof store>;

export const ENQUIRIES_SHOW = defineCommand({
  name: 'show',
  description: 'Print everything stored about one person (GDPR access), or about some enquiries.',
  options: { ...store, ...person, format: formatOption(['human', 'json'], 'human') },
});
export type ShowOptions = OptionsOf<typeof ENQUIRIES_SHOW.options>;

export const ENQUIRIES_ERASE = defineCommand({
  name: 'erase',
  description: "Erase one person's enquiries (GDPR erasure) with their e-mail jobs and duplicate keys, after a confirmation.",
  options: {
    ...store,
    ...person,
    yes: { flag: '--yes', description: 'do not ask (for scripts); without it and without a terminal, nothing is erased' },
  },
});
export type EraseOptions = OptionsOf<typeof ENQUIRIES_ERASE.options>;

export const ENQUIRIES_BACKUP = defineCommand({
  name: 'backup',
  description: 'Write a consistent copy of the enquiry database to a new file (also while "content serve" runs).',
  options: {
    data: store.data,
    database: store.database,
    to: { flag: '--to <file>', description: 'the backup file to create (never an existing one); readable by you only' },
  },
});
export type BackupOptions = OptionsOf<typeof ENQUIRIES_BACKUP.options>;

export const ENQUIRIES_RESTORE_BACKUP = defineCommand({
  name: 'restore-backup',
  description: 'Restore a backup made by "content enquiries backup" into a folder that holds no enquiries.',
  options: { data: { flag: '--data <dir>', description: 'the folder to restore into', default: '.enquiries' } },
});
export type RestoreBackupOptions = OptionsOf<typeof ENQUIRIES_RESTORE_BACKUP.options>;
