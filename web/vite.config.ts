/**
 * Vite for the web UI. The root is `web/`, the bundle goes to `web/dist` (served by the API at
 * `/app`), and the dev server (`npm run dev`) listens on WEBUI_HOST:WEBUI_PORT (127.0.0.1:7651)
 * at `/app/`, reading the repository-root `.env` and proxying `/api` (see dev-proxy.ts).
 */
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv } from 'vite';
import { apiProxy } from './dev-proxy.js';

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
  const port = Number(env.WEBUI_PORT?.trim() || 7651);
  const host = env.WEBUI_HOST?.trim() || '127.0.0.1';
  const proxy = command === 'serve' ? apiProxy(env) : undefined;
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
