import { join } from 'node:path';
import { compilerSalt } from '../cache/policy.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { artifactsDir } from '../sources-key.js';

/**
 * Where the compiled validators of these sources are installed: beside the CLI bundle, in the
 * folder of its sources key (cli/sources-key.js), so a change to a zod shape (under cli/) is a new
 * key and so new validators, never the old rules (issue #34). Written by
 * cli/validate/install-validators.ts, from the zod source, not from the committed schemas/ (those
 * are for the editors).
 */
export const installedValidatorsFile = (): string => join(artifactsDir(PROJECT_ROOT, compilerSalt()), 'validators.cjs');
