/**
 * For requests the API answers only when the work is done (a reindex, migrations: minutes on a
 * large instance): on a terminal, `label… Ns` while waiting, so a long wait never looks hung.
 */
import type { Io } from '../../io.js';

export async function withElapsed<T>(io: Io, label: string, work: Promise<T>, quiet = false): Promise<T> {
  if (!io.isTTY || quiet) return work;
  const started = Date.now();
  const timer = setInterval(
    () => io.stderr.write(`\r${label}… ${((Date.now() - started) / 1000).toFixed(0)}s`),
    500,
  );
  try {
    return await work;
  } finally {
    clearInterval(timer);
    io.stderr.write('\r\x1b[K');
  }
}
