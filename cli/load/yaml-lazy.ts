import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let yaml: typeof import('yaml') | undefined;

/**
 * The `yaml` package, loaded on first use. It keeps every node's position, and is what finds and
 * locates YAML mistakes; a clean file never needs it (yaml-plain.ts reads it), and loading it
 * takes longer than validating the shipped content, so a clean run does not load it at all.
 */
export const yamlPackage = (): typeof import('yaml') => (yaml ??= require('yaml') as typeof import('yaml'));
