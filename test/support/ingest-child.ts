/**
 * Child process for the crash-safety test: opens the embedded store in `dataDir`, applies the
 * migrations and ingests `root`. The test kills it at random moments and checks that a final
 * clean run reaches exactly the state of an uninterrupted one.
 */
import { openStore } from '../../src/store/open-store.js';
import { createMigrator } from '../../src/migrations/runner.js';
import { ingestTree } from '../../src/ingest/ingest-tree.js';
import { storeSink } from '../../src/ingest/sink.js';

const [dataDir, root] = process.argv.slice(2);
if (!dataDir || !root) {
  console.error('usage: ingest-child <dataDir> <root>');
  process.exit(2);
}
const store = await openStore({ dataDir });
await createMigrator(store).up();
const result = await ingestTree({
  root,
  sink: storeSink(store),
  hostname: 'crash-test-host',
  source: 'backfill',
  provenance: 'backfilled',
});
await store.close();
process.stdout.write(JSON.stringify(result) + '\n');
