/**
 * Global setup of the browser layer: builds the UI once per run, in both forms the suites serve
 * (see ReactBuild in test/browser/harness.ts), into the run's temporary directory — never the
 * checked-out web/dist, so a stale build cannot hide a change. Each suite serves these builds
 * through CT_STATIC_DIR instead of building its own (a build with Brotli at level 11 takes about
 * 9 s on these machines; there were 13 suites).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
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

async function buildUi(react: 'production' | 'development'): Promise<string> {
  const out = mkdtempSync(path.join(tmpdir(), `ct-ui-${react}-`));
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
  return out;
}

export default async function setup(project: TestProject): Promise<void> {
  if (!process.env[BUILDS]) {
    // One after the other: two builds at once on two cores only compete.
    const production = await buildUi('production');
    const development = await buildUi('development');
    process.env[BUILDS] = JSON.stringify({ production, development });
  }
  project.provide(
    'uiBuilds',
    JSON.parse(process.env[BUILDS]!) as { production: string; development: string },
  );
}
