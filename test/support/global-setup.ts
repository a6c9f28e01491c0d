/**
 * Builds the TypeScript sources once before the suite: tests that run the real CLI, server or
 * crash-test children execute the compiled `dist/` (as users do), never a stale build. tsc emits
 * even when it finds type errors; those fail the run in CI and only warn on a developer machine.
 * In CI the tests, the benchmarks and the web UI are type-checked too: vitest and Vite only strip
 * types, so a type error there would otherwise pass.
 *
 * Every temporary file of the run goes under one directory, removed at the end: the test
 * processes (and the CLIs, servers and browsers they start) inherit its TMPDIR, so a test that
 * fails before its own clean-up, or a child killed on purpose, leaves nothing behind in /tmp.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot } from './paths.js';
import { probePostgres, requestedEngines, sweepStaleSchemas } from './postgres-probe.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the PostgreSQL runs are skipped ('' when PostgreSQL answers); see engines.ts. */
    postgresSkip: string;
  }
}

const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');

function runTsc(args: string[]): void {
  execFileSync(process.execPath, [tsc, ...args], { cwd: repoRoot, stdio: 'inherit' });
}

export default async function setup(project: TestProject): Promise<() => void> {
  const runTmp = mkdtempSync(path.join(tmpdir(), 'ct-test-run-'));
  process.env.TMPDIR = runTmp;
  // Probed once per run, so a machine without PostgreSQL gets one line, not one per file.
  const postgresSkip = requestedEngines().includes('postgres') ? await probePostgres() : '';
  if (postgresSkip) console.log(`skipped: ${postgresSkip}`);
  else if (requestedEngines().includes('postgres')) await sweepStaleSchemas();
  project.provide('postgresSkip', postgresSkip);
  try {
    runTsc(['-p', 'tsconfig.build.json']);
    if (process.env.CI) {
      runTsc(['-p', 'tsconfig.json', '--noEmit']);
      runTsc(['-p', 'web/tsconfig.json', '--noEmit']);
      runTsc(['-p', 'web/tsconfig.node.json', '--noEmit']);
    }
  } catch (err) {
    if (process.env.CI) throw err;
    console.warn('global-setup: tsc reported errors (ignored outside CI)');
  }
  return () => rmSync(runTmp, { recursive: true, force: true });
}
