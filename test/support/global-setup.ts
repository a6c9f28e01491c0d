/**
 * Builds the TypeScript sources once before the suite: tests that run the real CLI, server or
 * crash-test children execute the compiled `dist/` (as users do), never a stale build. tsc emits
 * even when it finds type errors; those fail the run in CI and only warn on a developer machine.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths.js';

export default function setup(): void {
  try {
    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
  } catch (err) {
    if (process.env.CI) throw err;
    console.warn('global-setup: tsc reported errors (ignored outside CI)');
  }
}
