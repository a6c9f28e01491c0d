/**
 * The web UI's unit tests (pure modules in src/lib) on their own: `npx vitest run -c web/vitest.config.ts`.
 * The root vitest.config.ts runs them too as part of `npm test` once it includes `web/src/**\/*.test.ts`.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: dirname(fileURLToPath(import.meta.url)),
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
