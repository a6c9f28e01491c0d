/**
 * The web UI's typed client (web/src/api-schema.gen.ts) is generated from the API's description;
 * a route or schema changed without regenerating it must fail here, not in a browser.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

it('web/src/api-schema.gen.ts is what `npm run gen:api` generates from the current API', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'web', 'gen-api.mjs'), '--check'],
    {
      cwd: repoRoot,
    },
  );
  expect(stdout).toMatch(/is up to date/);
}, 60_000);
