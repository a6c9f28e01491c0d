/**
 * Global setup of the browser layer: builds the UI once per run, in both forms the suites serve
 * (see ReactBuild in test/browser/harness.ts), into the run's temporary directory — never the
 * checked-out web/dist, so a stale build cannot hide a change. Each suite serves these builds
 * through CT_STATIC_DIR instead of building its own (a build with Brotli at level 11 takes about
 * 9 s on these machines; there were 13 suites).
 *
 * The builds run in the background: setup returns at once, so the other layers' tests start
 * while they build (they were 15 of the 27 s of set-up, with one core mostly idle), and a browser
 * suite waits for its build's marker (`uiBuild`, test/browser/harness.ts) before it serves it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { repoRoot } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's UI builds, by React build. */
    uiBuilds: { production: string; development: string };
  }
}

const run = promisify(execFile);
const BUILDS = 'CT_TEST_UI_BUILDS';
/** Set when this run started the builds (else they were named from outside). */
const STARTED = 'CT_TEST_UI_BUILDS_STARTED';

/** Written into a build's directory when it is complete, or holding the error when it failed. */
export const UI_BUILT = '.ct-built';
export const UI_FAILED = '.ct-failed';

async function buildUi(react: 'production' | 'development', out: string): Promise<void> {
  await run(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'web/vite.config.ts',
      '--outDir',
      out,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    // Vite builds for the NODE_ENV it finds, and Vitest sets it to `test`.
    { cwd: repoRoot, maxBuffer: 16 << 20, env: { ...process.env, NODE_ENV: react } },
  );
  if (!existsSync(path.join(out, 'index.html')))
    throw new Error(`vite build wrote no index.html into ${out}`);
}

/** Marks `out` built, or failed with the error, for the suites waiting on it. */
const settle = (out: string, build: Promise<void>) =>
  build.then(
    () => writeFileSync(path.join(out, UI_BUILT), ''),
    (err: unknown) => writeFileSync(path.join(out, UI_FAILED), String((err as Error)?.stack ?? err)),
  );

export default function setup(project: TestProject): void {
  if (!process.env[BUILDS]) {
    const production = mkdtempSync(path.join(tmpdir(), 'ct-ui-production-'));
    const development = mkdtempSync(path.join(tmpdir(), 'ct-ui-development-'));
    // One after the other: two builds at once on two cores only compete. Not awaited (above).
    void settle(production, buildUi('production', production)).then(() =>
      settle(development, buildUi('development', development)),
    );
    process.env[BUILDS] = JSON.stringify({ production, development });
    process.env[STARTED] = '1';
  } else if (!process.env[STARTED]) {
    // Builds named from outside (a developer's rerun): complete if they hold an index.html, else
    // failed at once, rather than waited for.
    for (const dir of Object.values(JSON.parse(process.env[BUILDS]!) as Record<string, string>)) {
      if (existsSync(path.join(dir, 'index.html'))) writeFileSync(path.join(dir, UI_BUILT), '');
      else writeFileSync(path.join(dir, UI_FAILED), `no index.html in ${dir} (named by ${BUILDS})`);
    }
  }
  project.provide(
    'uiBuilds',
    JSON.parse(process.env[BUILDS]!) as { production: string; development: string },
  );
}
