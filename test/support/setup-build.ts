/**
 * Global setup of every layer: compiles the sources to `dist/` once per run, because the real
 * CLI, server and crash-test children run the compiled code (as users do), and so does the SQLite
 * writer thread of every in-process store: never a stale build. Only `tsconfig.build.json` (src, bench, test/support: what those children
 * load); the type check of everything else is `npm run typecheck`, a step of its own in CI
 * (.ci/run). tsc emits even when it finds type errors: those fail the run in CI and only warn on
 * a developer machine. The build is incremental (its `.tsbuildinfo` lives in dist/), so an
 * unchanged tree costs a few seconds.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths.js';

const BUILT = 'CT_TEST_BUILT';

export default function setup(): void {
  if (process.env[BUILT]) return;
  process.env[BUILT] = '1';
  const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'inherit' });
  } catch (err) {
    if (process.env.CI) throw err;
    console.warn('setup-build: tsc reported errors (ignored outside CI)');
  }
}
