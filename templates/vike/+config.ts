import type { Config } from 'vike/types';

// Every page is prerendered; there is no client router. Pages ship no JavaScript unless they
// add a +client.ts (only the pages with the enquiry form do). The prerender is started by
// cli/render/vike.ts itself after the build (`prerender({ pageContextInit })`), to hand it the pages.
export default {
  prerender: { partial: false, noExtraDir: true, parallel: 4, disableAutoRun: true },
  clientRouting: false,
  passToClient: [],
} satisfies Config;
