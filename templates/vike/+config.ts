import type { Config } from 'vike/types';

// Every page is prerendered; there is no client router. Pages ship no JavaScript unless they
// add a +client.ts (only the pages with the enquiry form do).
export default {
  prerender: { partial: false, noExtraDir: true, parallel: 4 },
  clientRouting: false,
  passToClient: [],
  meta: { page: { env: { server: true } } },
} satisfies Config;
