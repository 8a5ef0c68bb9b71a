import { describe, it } from 'vitest';
import { CONTENT, FIXTURE } from '../helpers/cli.ts';
import { readersAgree } from '../helpers/readers.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

// The plain reader against `yaml` alone, on whole content folders (the editing corpus is held to
// the same in tests/validate/fixtures.test.ts, case by case).
describe('the load stage with the plain reader and with yaml alone', () => {
  const TODAY = '2026-11-22';
  it('gives the same data and problems on the shipped content', () => readersAgree(CONTENT, TODAY));
  it('gives the same data and problems on the frozen fixture content', () => readersAgree(FIXTURE, TODAY));
  it('gives the same data and problems on synthetic courses', () => {
    const syn = syntheticContent(5);
    try {
      readersAgree(syn.dir, TODAY);
    } finally {
      syn.cleanup();
    }
  });
});
