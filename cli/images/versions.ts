import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The exact version of an installed package: part of every cache key its output goes into. */
export const versionOf = (name: string): string => (require(`${name}/package.json`) as { version: string }).version;
