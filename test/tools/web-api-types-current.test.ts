/**
 * The API client's types (src/client/api-schema.gen.ts, used by the UI and the CLI) are generated
 * from the API's description; a route or schema changed without regenerating them must fail here,
 * not in a browser or a command.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

it('src/client/api-schema.gen.ts is what `npm run gen:api` generates from the current API', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'web', 'gen-api.mjs'), '--check'],
    {
      cwd: repoRoot,
    },
  );
  expect(stdout).toMatch(/is up to date/);
}, 60_000);
