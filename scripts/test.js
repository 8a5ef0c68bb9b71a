#!/usr/bin/env node
// `npm test`: every part of the project's checks, in order, each run even when one before it failed
// (a failing unit test must not hide what Lighthouse would say); the exit code is non-zero when any
// part failed, and the last lines say which. Arguments are handed to vitest (`npm test -- tests/cli`),
// and then only vitest runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The shipped site that the browser, server and Lighthouse tests read, built once for both vitest runs
// (tests/built-site.ts builds it itself when it is not given, as for `npm test -- FILE`).
const site = mkdtempSync(join(tmpdir(), 'studio-test-site-'));

const steps = [
  ['build the shipped site for the tests', process.execPath, ['cli/bin.js', 'build', '--quiet', '--out', join(site, 'dist')]],
  ['type check', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['validate the shipped content', process.execPath, ['cli/bin.js', 'validate', '--quiet']],
  ['translations of the shipped content', process.execPath, ['cli/bin.js', 'i18n', '--strict', '--quiet']],
  ['tests', 'npx', ['vitest', 'run', '--exclude', 'tests/browser/lighthouse.test.ts']],
  ['Lighthouse', 'npx', ['vitest', 'run', 'tests/browser/lighthouse.test.ts']],
];

const args = process.argv.slice(2);
const chosen = args.length ? [['tests', 'npx', ['vitest', 'run', ...args]]] : steps;
const failed = [];
for (const [name, command, argv] of chosen) {
  console.log(`\n── ${name}: ${[command === process.execPath ? 'node' : command, ...argv].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(command, argv, { stdio: 'inherit', env: { ...process.env, STUDIO_TEST_SITE: join(site, 'dist') } });
  console.log(`── ${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const code = r.status ?? 1;
  if (code !== 0) failed.push(`${name} (${r.signal ? `killed by ${r.signal}` : `exit ${code}`})`);
}
rmSync(site, { recursive: true, force: true });
console.log(`\nnpm test: ${chosen.length - failed.length} of ${chosen.length} parts passed${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
