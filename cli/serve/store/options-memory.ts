import type { OptionsMemory } from '../http/live-site.ts';
import type { PgStore } from './pg-store.ts';
import { SqliteStore } from './sqlite-store.ts';
import type { EnquiryStore } from './store.ts';

/** The setting both stores keep the form's options in (`settings`, `studio_settings`). */
const FORM_OPTIONS = 'form_options';

type Remembered = ReturnType<OptionsMemory['recall']>;
const parse = (text: string | undefined): Remembered => JSON.parse(text ?? 'null') ?? undefined;

/**
 * The form's options of the build served and of the one before it, kept in the enquiry store,
 * so that a page of the build before that is still open in a browser can post its option also
 * after a restart of `content serve` (publish.sh restarts it). SQLite reads and writes them as
 * they are asked for; PostgreSQL reads them once, here, and writes them in the order they are
 * remembered. A database that does not answer now (it is waited for) has nothing to recall:
 * only the options of the build served are taken then.
 */
export async function optionsMemory(store: EnquiryStore): Promise<OptionsMemory> {
  if (store instanceof SqliteStore)
    return { recall: () => parse(store.setting(FORM_OPTIONS)), remember: (o) => store.setSetting(FORM_OPTIONS, JSON.stringify(o)) };
  const pg = store as PgStore;
  let known = await pg.setting(FORM_OPTIONS).catch(() => undefined);
  return {
    recall: () => parse(known),
    remember: (o) => {
      known = JSON.stringify(o);
      pg.rememberSetting(FORM_OPTIONS, known);
    },
  };
}
