import { readFileSync } from 'node:fs';
import { fromRoot } from '../paths.ts';

let pinned: Record<string, string> | undefined;

/**
 * The version of a dependency as package.json pins it (exactly: the project pins every version):
 * part of every cache key its output goes into. Read from the project's own file, since packages
 * with an `exports` map (sharp) do not export their package.json.
 */
export function versionOf(name: string): string {
  pinned ??= (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  const version = pinned[name];
  if (!version) throw new Error(`${name} is not a dependency in package.json`);
  return version;
}
