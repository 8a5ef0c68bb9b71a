import { expect } from 'vitest';
import { loadContent } from '../../cli/load/load.ts';
import { validateContent } from '../../cli/validate/validate.ts';

/**
 * Holds the one fast path of the load stage to its reference: content read with the plain reader
 * (cli/load/yaml-plain.ts, what every command uses) gives the same data in every file, and the same
 * problems at the same places, as content read by `yaml` alone (`reader: 'yaml'`).
 */
export function readersAgree(dir: string, today: string): void {
  const data = (reader: 'plain' | 'yaml') => {
    const loaded = loadContent(dir, { reader });
    return [...loaded.files.map((f) => [f.source?.file, f.source?.data]), [loaded.lock?.source?.file, loaded.lock?.source?.data]];
  };
  const fast = data('plain');
  expect(fast.length).toBeGreaterThan(1);
  expect(fast).toStrictEqual(data('yaml'));
  expect(validateContent(dir, { today }).problems).toStrictEqual(validateContent(dir, { today, reader: 'yaml' }).problems);
}
