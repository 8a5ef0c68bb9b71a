import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir`, as sorted relative paths with forward slashes. */
export function* walk(dir: string, base = dir): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path, base);
    else yield relative(base, path).replaceAll('\\', '/');
  }
}
