import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * The project brings its runtime from the npm registry (node-linux-<arch>, an optional dependency whose
 * `bin` is node_modules/.bin/node), so `npm ci && npm test` runs on it on a machine whose own Node is older.
 */
describe('the runtime', () => {
  it('is Node 24 or newer, as `engines` asks', () => {
    expect(pkg.engines.node).toBe('>=24');
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(24);
  });

  const platformPackage = `node-${process.platform}-${process.arch}`;
  it.runIf(platformPackage in pkg.optionalDependencies)(
    'is the pinned one from node_modules, for this process and for every `node` a test or script spawns',
    () => {
      const pinned = pkg.optionalDependencies[platformPackage];
      expect(pinned).toMatch(/^\d+\.\d+\.\d+$/); // exact: npm would otherwise pick by the installing Node's `engines`
      const bin = join(ROOT, 'node_modules', '.bin', 'node');
      expect(existsSync(bin)).toBe(true);
      expect(process.version).toBe(`v${pinned}`);
      expect(realpathSync(process.execPath)).toBe(realpathSync(bin));
      // `node cli/bin.js …` in package.json's scripts and in the tests: found on the PATH npm gives them.
      const spawned = spawnSync('node', ['-p', 'process.version'], { encoding: 'utf8' });
      expect(spawned.stdout.trim()).toBe(`v${pinned}`);
    },
  );

  it('is what every script starts: `node` or a tool from node_modules/.bin, never a Node by its path', () => {
    for (const [name, script] of Object.entries(pkg.scripts)) expect(script, name).not.toMatch(/\/(?:usr\/(?:local\/)?)?bin\/node\b|\bnodejs\b/);
  });
});
