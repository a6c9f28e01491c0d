/**
 * What every test layer shares, once per run: one temporary directory for the whole run and
 * whether PostgreSQL answers.
 *
 * Every temporary file of the run goes under one directory, removed at the end: the test
 * processes (and the CLIs, servers and browsers they start) inherit its TMPDIR, so a test that
 * fails before its own clean-up, or a child killed on purpose, leaves nothing behind in /tmp.
 *
 * Each layer (vitest.config.ts) lists this file, and Vitest calls a project's global setup only
 * when that project has tests queued; the work is done by the first call of the run and reused by
 * the others (the answers are kept in this process's environment, which the workers inherit).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { probePostgres, requestedEngines, sweepStaleSchemas } from './postgres-probe.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the PostgreSQL runs are skipped ('' when PostgreSQL answers); see engines.ts. */
    postgresSkip: string;
  }
}

const RUN_TMP = 'CT_TEST_RUN_TMP';
const PG_SKIP = 'CT_TEST_POSTGRES_SKIP';

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  let teardown: (() => void) | undefined;
  if (!process.env[RUN_TMP]) {
    const runTmp = mkdtempSync(path.join(tmpdir(), 'ct-test-run-'));
    process.env[RUN_TMP] = runTmp;
    process.env.TMPDIR = runTmp;
    // Probed once per run, so a machine without PostgreSQL gets one line, not one per file.
    const skip = requestedEngines().includes('postgres') ? await probePostgres() : '';
    if (skip) console.log(`skipped: ${skip}`);
    else if (requestedEngines().includes('postgres')) await sweepStaleSchemas();
    process.env[PG_SKIP] = skip;
    teardown = () => rmSync(runTmp, { recursive: true, force: true });
  }
  project.provide('postgresSkip', process.env[PG_SKIP] ?? '');
  return teardown;
}
