/**
 * One measured task in its own process, so its peak RSS is its own:
 *   worker baseline <root>            read + JSON.parse every line (the baseline)
 *   worker ingest <dataDir> <root> [noscan]   full (or incremental) in-process ingest; `noscan`
 *                                     leaves secrets uncounted (what the count costs is the difference)
 *   worker secrets <root>             secretlint's scan (src/secrets) over the same bytes
 * Prints one JSON line: { ms, maxRssMB, ...task figures }.
 */
import { performance } from 'node:perf_hooks';
import { parseOnly } from './baseline.js';
import { scanTree } from '../src/ingest/scan-tree.js';
import { ingestTree } from '../src/ingest/ingest-tree.js';
import { storeSink } from '../src/ingest/sink.js';
import { openStore } from '../src/store/open-store.js';
import { createMigrator } from '../src/migrations/runner.js';
import { scanForSecrets } from './secret-scan.js';

const [task, ...args] = process.argv.slice(2);

async function main(): Promise<Record<string, unknown>> {
  if (task === 'baseline') {
    const files = (await scanTree(args[0]!)).map((f) => f.path);
    const t0 = performance.now();
    const r = await parseOnly(files);
    return { ms: performance.now() - t0, ...r };
  }
  if (task === 'ingest') {
    const store = await openStore({ dataDir: args[0]! });
    await createMigrator(store).up();
    const t0 = performance.now();
    const r = await ingestTree({
      root: args[1]!,
      sink: storeSink(store),
      hostname: 'bench',
      source: 'backfill',
      provenance: 'backfilled',
      countSecrets: args[2] !== 'noscan',
    });
    const ms = performance.now() - t0;
    await store.close();
    if (r.failed.length) throw new Error(`ingest failed: ${JSON.stringify(r.failed.slice(0, 3))}`);
    return { ms, bytes: r.bytesRead, files: r.changedFiles, docs: r.docsWritten };
  }
  if (task === 'secrets') {
    const files = (await scanTree(args[0]!)).map((f) => f.path);
    const t0 = performance.now();
    const r = await scanForSecrets(files);
    return { ms: performance.now() - t0, ...r };
  }
  throw new Error(`unknown task ${task}`);
}

main().then(
  (r) => {
    process.stdout.write(JSON.stringify({ ...r, maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\n');
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
