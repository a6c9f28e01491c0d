/**
 * Global setup of every layer: compiles the sources to `dist/` once per run, because the real
 * CLI, server and crash-test children run the compiled code (as users do), and so does the SQLite
 * writer thread of every in-process store: never a stale build. Only `tsconfig.build.json` (src, bench, test/support: what those children
 * load); the type check of everything else is `npm run typecheck`, a step of its own in CI
 * (.ci/run). tsc emits even when it finds type errors: those fail the run in CI and only warn on
 * a developer machine. The build is incremental (its `.tsbuildinfo` lives in dist/), and skipped
 * when no input is newer than the last build's `.tsbuildinfo`: tsc took 3.6 s to find nothing to
 * do, before every run's first test, and a targeted run (`npx vitest run <file>`) pays it each time.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

/** What tsconfig.build.json compiles, and what can change its output without a source changing. */
const INPUTS = ['src', 'bench', 'test/support', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const BUILD_INFO = path.join(repoRoot, 'dist', 'tsconfig.build.tsbuildinfo');

/** The newest modification time among the inputs, directories included (a file removed). */
function newestInput(): number {
  let newest = 0;
  const visit = (p: string) => {
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    newest = Math.max(newest, st.mtimeMs);
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  for (const input of INPUTS) visit(path.join(repoRoot, input));
  return newest;
}

const BUILT = 'CT_TEST_BUILT';

export default function setup(): void {
  if (process.env[BUILT]) return;
  process.env[BUILT] = '1';
  const built = statSync(BUILD_INFO, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= newestInput()) return;
  const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'inherit' });
    // tsc leaves the file alone when it finds nothing to do (an edit undone): mark it current.
    const now = new Date();
    utimesSync(BUILD_INFO, now, now);
  } catch (err) {
    if (process.env.CI) throw err;
    console.warn('setup-build: tsc reported errors (ignored outside CI)');
  }
}
