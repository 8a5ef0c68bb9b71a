import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { FileCache, imageCacheFolder } from '../cache/file-cache.ts';
import { cachesOff } from '../cache/policy.ts';
import { LIMIT } from '../schema/image-uses.ts';
import { readImageFile } from './picture-file.ts';

const require = createRequire(import.meta.url);

/** How long decoding the new pictures of one validate may take before each is called undecodable (a hung decoder). */
const TIME_LIMIT_MS = 120_000;

/**
 * Decodes each picture (sharp, in a child process: validate is synchronous, and a picture that
 * makes the decoder fail or hang takes only that process down), shrunk on load, so a file whose
 * header is fine but whose data is cut off or damaged is found by validate, not later by the
 * build. The input was read whole from the parent (the confined reader) and is sent on stdin; the
 * answers come in its order.
 */
const DECODER = `
const sharp = require(process.argv[1]);
sharp.cache(false);
const input = require('node:fs').readFileSync(0);
const head = input.indexOf(10);
const sizes = JSON.parse(input.subarray(0, head).toString());
let end = head + 1;
const starts = sizes.map((size) => (end += size) - size);
const reasons = sizes.map(() => null);
let next = 0;
const decode = async () => {
  for (let i = next++; i < sizes.length; i = next++) {
    try {
      await sharp(input.subarray(starts[i], starts[i] + sizes[i]), { failOn: 'error', limitInputPixels: ${LIMIT.pixels} }).rotate().resize(64, 64, { fit: 'inside' }).raw().toBuffer();
    } catch (error) {
      reasons[i] = String(error && error.message).split('\\n')[0];
    }
  }
};
// As many pictures at once as the machine has cores (each decoded on one of libuv's threads), at most one a core in memory.
Promise.all(Array.from({ length: require('node:os').availableParallelism() }, decode)).then(() => process.stdout.write(JSON.stringify(reasons)));
`;

/**
 * The decoder validate asks about pictures whose headers are fine (cli/validate/checks/images.ts):
 * a picture decoded whole before is known by the hash of its bytes (a folder of marks in the
 * compiler's cache), so a warm validate reads and hashes the files but decodes none.
 */
export const pictureDecoder =
  (contentDir: string) =>
  (files: string[]): Map<string, string> => {
    const seen = new FileCache(imageCacheFolder('decoded'), !cachesOff());
    const fresh: { file: string; bytes: Buffer; mark: string }[] = [];
    for (const file of files) {
      const opened = readImageFile(contentDir, file);
      if (!opened.ok) continue; // read a moment ago: gone since, which the build says
      const mark = createHash('sha256').update(opened.bytes).digest('hex');
      if (!seen.has(mark)) fresh.push({ file, bytes: opened.bytes, mark });
    }
    const reasons = new Map<string, string>();
    if (!fresh.length) return reasons;
    const run = spawnSync(process.execPath, ['-e', DECODER, require.resolve('sharp')], {
      input: Buffer.concat([Buffer.from(`${JSON.stringify(fresh.map((f) => f.bytes.length))}\n`), ...fresh.map((f) => f.bytes)]),
      timeout: TIME_LIMIT_MS,
      maxBuffer: 1024 * 1024,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let answers: (string | null)[] | undefined;
    try {
      answers = JSON.parse(run.stdout.toString()) as (string | null)[];
    } catch {
      answers = undefined;
    }
    fresh.forEach(({ file, mark }, i) => {
      const reason = answers
        ? answers[i]
        : run.error
          ? `the decoder did not finish: ${run.error.message}`
          : `the decoder stopped (${run.signal ?? run.status})`;
      if (reason) reasons.set(file, reason);
      else seen.store(mark, new Uint8Array());
    });
    return reasons;
  };
