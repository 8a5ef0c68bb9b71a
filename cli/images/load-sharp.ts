import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** sharp, loaded when a picture is first read or encoded: its native library costs a build without pictures nothing. */
export const loadSharp = (): typeof import('sharp').default => require('sharp') as typeof import('sharp').default;
