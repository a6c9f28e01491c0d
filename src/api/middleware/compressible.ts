/**
 * Which files of the UI build go compressed, in one place for both sides: the build that writes
 * a Brotli and a gzip copy beside each (web/vite.config.ts) and the server that sends those
 * copies, or compresses on the way out when there are none (static-app.ts). No imports, so the
 * Vite config can take it without the server.
 */

/** Text worth compressing; images and fonts are compressed already. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.svg',
  '.txt',
  '.webmanifest',
]);

/** Below this, compression saves less than it costs. */
export const MIN_COMPRESS_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip';

/** The suffix of each encoding's copy beside the file (`index.js.br`). */
export const COPY_SUFFIX: Record<ContentEncoding, string> = { br: '.br', gzip: '.gz' };
