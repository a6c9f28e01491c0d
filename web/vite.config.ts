/**
 * Vite for the web UI. The root is `web/`, the bundle goes to `web/dist` (served by the API at
 * `/app`), and the dev server (`npm run dev`) listens on WEBUI_HOST:WEBUI_PORT (127.0.0.1:7651)
 * at `/app/`, reading the repository-root `.env` and proxying `/api` (see dev-proxy.ts).
 */
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { COMPRESSIBLE, COPY_SUFFIX, MIN_COMPRESS_BYTES } from '../src/api/middleware/compressible.js';
import { apiProxy } from './dev-proxy.js';

/**
 * Writes a Brotli (`.br`, best quality) and a gzip (`.gz`) copy beside every text file of the
 * build over 1 KB: the server (src/api/middleware/static-app.ts) then sends the bundle compressed
 * at no cost per request. Which files, and the suffixes, are the server's (compressible.ts).
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'transcripts-precompress',
    // A build of React's development form (NODE_ENV=development: the browser tests' build that
    // turns React's warnings into failures) is never served to users: no copies, 3.5 s less.
    apply: (_config, env) => env.command === 'build' && process.env.NODE_ENV !== 'development',
    async writeBundle(options) {
      const dir = options.dir;
      if (!dir) return;
      const files = (await readdir(dir, { recursive: true })) as string[];
      await Promise.all(
        files
          .filter((f) => COMPRESSIBLE.has(extname(f)))
          .map(async (f) => {
            const path = join(dir, f);
            if ((await stat(path)).size < MIN_COMPRESS_BYTES) return;
            const data = await readFile(path);
            const [br, gzipped] = await Promise.all([
              brotli(data, {
                params: {
                  [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                  [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gz(data, { level: 9 }),
            ]);
            await Promise.all([
              writeFile(path + COPY_SUFFIX.br, br),
              writeFile(path + COPY_SUFFIX.gzip, gzipped),
            ]);
          }),
      );
    },
  };
}

const webRoot = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(webRoot, '..');

export default defineConfig(({ mode, command }) => {
  // `.env` values, with the process environment taking precedence (loadEnv's rule).
  // WEBUI_ENV_DIR lets the dev-server tests point at a scratch `.env` instead of the developer's.
  const envDir = process.env.WEBUI_ENV_DIR ?? repoRoot;
  const env = {
    ...process.env,
    ...loadEnv(mode, envDir, ['WEBUI_', 'WEBAPI_', 'CT_', 'XDG_']),
  };
  // loadEnv lets the process environment win; what it did not set came from .env.
  const fromEnvironment = (name: string) => (process.env[name]?.trim() ?? '') !== '';
  const port = Number(env.WEBUI_PORT?.trim() || 7651);
  const host = env.WEBUI_HOST?.trim() || '127.0.0.1';
  const proxy = command === 'serve' ? apiProxy({ env, fromEnvironment }) : undefined;
  if (proxy) console.log(`transcripts UI dev server: /api → ${proxy.target.url} (${proxy.target.detail})`);

  return {
    root: webRoot,
    base: '/app/',
    plugins: [
      tanstackRouter({
        target: 'react',
        routesDirectory: resolve(webRoot, 'src/routes'),
        generatedRouteTree: resolve(webRoot, 'src/routeTree.gen.ts'),
        autoCodeSplitting: true,
        quoteStyle: 'single',
        semicolons: true,
      }),
      react(),
      precompress(),
    ],
    build: {
      outDir: resolve(webRoot, 'dist'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 1500,
    },
    server: {
      host,
      port,
      strictPort: true,
      proxy: proxy ? { '/api': proxy.options } : undefined,
    },
    preview: { host, port, strictPort: true },
  };
});
