import { z } from 'zod';
import { DEFAULT_LOCALE, LANGUAGE_NAMES, languageList, TRANSLATED_LOCALES } from '../locales.ts';
import { Image } from './image.ts';
import { LocalizedLine, LocalizedPlaceholder, LocalizedText, OneLineText, Placeholder, SiteLink } from './localized.ts';

export const SiteFile = z
  .strictObject({
    name: z.union([OneLineText, LocalizedPlaceholder]).describe('The studio name (or a placeholder "TODO: …", in every language).'),
    legalName: OneLineText.optional(),
    baseUrl: z.url().describe('The public address of the site, used for canonical links and the sitemap.'),
    logo: Image.optional().describe('The studio logo, shown in the header and on every share card.'),
    homePhoto: Image.optional().describe('A photo at the top of the home page (the studio, a lesson).'),
    shareCards: z.boolean().optional().describe('Make a share card (the picture a messenger shows for a shared link) for every page. Default: true.'),
    contacts: z.strictObject({
      phone: z.union([z.string().regex(/^\+?[0-9 ()/-]{6,}$/), Placeholder, LocalizedPlaceholder]),
      email: z.union([z.email(), Placeholder, LocalizedPlaceholder]),
      address: z.strictObject({
        street: z.union([OneLineText, LocalizedPlaceholder]),
        postalCode: z.union([z.string().regex(/^[0-9]{5}$/), Placeholder, LocalizedPlaceholder]),
        city: z.union([OneLineText, LocalizedPlaceholder]),
        country: z.literal('DE'),
      }),
      location: LocalizedText.describe('How to find the studio, as a visitor reads it.'),
    }),
    hours: z
      .array(
        z.strictObject({
          days: LocalizedLine,
          dayCodes: z.array(z.enum(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])).min(1),
          time: z.union([z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]–([01][0-9]|2[0-3]):[0-5][0-9]$/), Placeholder, LocalizedPlaceholder]).optional(),
          note: LocalizedLine.optional().describe('E.g. "on request".'),
        }),
      )
      .min(1)
      .describe('Opening hours shown in the footer.'),
    menu: z
      .array(z.strictObject({ id: z.string().min(1), label: LocalizedLine, link: SiteLink }))
      .min(1)
      .describe('The main menu, in order.'),
    form: z
      .strictObject({
        endpoint: z
          .string()
          .regex(/^(\/|https:\/\/)/)
          .describe('Where the enquiry form posts (a path on this site or an https URL).'),
        thanksPath: z
          .string()
          .regex(/^\/[a-z0-9-]+$/)
          .describe('The localized thank-you page the form without JavaScript ends on.'),
        scriptTimeoutSeconds: z.number().int().positive().describe('How long the form script part may take to load.'),
        keepDays: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            'How many days `content serve` keeps an enquiry before deleting it (default 180). The privacy page states it where legal.yaml writes {{keepDays}} (the number with its word for days, ui.yaml legal.days: "180 дней", "180 days", "180 Tage"), and the server uses it unless --keep-days or STUDIO_KEEP_DAYS says otherwise.',
          ),
        notify: z
          .strictObject({
            to: z.union([z.email(), Placeholder]).optional().describe("Who gets the e-mail; default: the studio's e-mail address in contacts."),
            subject: LocalizedLine.optional().describe(
              `Subject line; the visitor's name and course are added after it. Only the ${LANGUAGE_NAMES[DEFAULT_LOCALE]} line is used (the e-mail goes to the studio): ${languageList(TRANSLATED_LOCALES)} are not needed, and not counted by "content i18n".`,
            ),
          })
          .optional()
          .describe(
            'E-mail each enquiry to the studio (`content serve`). The SMTP server and its password come only from the environment (STUDIO_SMTP_URL), never from content.',
          ),
      })
      .describe('The enquiry form.'),
  })
  .meta({ title: 'Site facts', description: 'Studio name, contacts, hours, locales, menu and the form endpoint.' });
export type SiteFile = z.infer<typeof SiteFile>;
