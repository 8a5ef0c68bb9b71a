import { z } from 'zod';
import { LocalizedLine } from './localized.ts';
import { UI_KEYS } from './ui-keys.ts';

const namespace = (keys: readonly string[]) => z.strictObject(Object.fromEntries(keys.map((k) => [k, LocalizedLine])) as Record<string, typeof LocalizedLine>);

export const UiFile = z
  .strictObject(
    Object.fromEntries(Object.entries(UI_KEYS).map(([ns, keys]) => [ns, namespace(keys)])) as {
      [N in keyof typeof UI_KEYS]: ReturnType<typeof namespace>;
    },
  )
  .meta({
    title: 'UI strings',
    description: 'Every text of the interface: menu, buttons, form labels and messages, footer. {{name}} marks a variable.',
  });
export type UiFile = z.infer<typeof UiFile>;
