/**
 * A store written by an earlier version opens with this one and migrates up, on both engines,
 * with its documents and every view's answers intact. The older stores are made by this code:
 * the corpus ingested at the latest version, then migrated down to each earlier version (the
 * shape that version left), closed, and opened again as a new process would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testEngine, type EngineName } from '../../test/support/engines.js';
import { claudeCorpusDir } from '../../test/support/paths.js';
import { ingestTree } from '../ingest/ingest-tree.js';
import { storeSink } from '../ingest/sink.js';
import type { Store } from '../store/contract.js';
import { openStore } from '../store/open-store.js';
import { MIGRATIONS } from './index.js';
import { createMigrator, latestVersion } from './runner.js';

const LATEST = latestVersion();
/** The last migration that only materialised a view; the ones after it reshape views' tables. */
const LAST_MATERIALIZING = MIGRATIONS.find((m) => m.name === 'session-annotations')!.version;

/** Everything the views answer over the corpus, as one comparable value. */
async function answers(s: Store) {
  const list = await s.views.listSessions({}, { limit: 1000, offset: 0 });
  const ids = list.rows.map((r) => r.summary.sessionId);
  const first = ids[0]!;
  const page = { limit: 50, offset: 0 };
  return {
    documents: (await s.stats()).documents,
    list,
    byTokens: await s.views.listSessions({}, page, { by: 'tokens', dir: 'desc' }),
    byEntries: await s.views.listSessions({}, page, { by: 'entries', dir: 'asc' }),
    text: await s.views.listSessions({ text: 'test' }, page),
    totals: await s.views.tokenTotals(),
    transcript: await s.views.transcriptPage(first, 'transcript.jsonl', page),
    turns: await s.views.turns(first, undefined, page),
    allTurns: await s.views.allTurns({ ...page, role: 'user' }),
    search: await s.views.search({ q: 'function', limit: 20, offset: 0 }),
    phrase: await s.views.search({ q: '"the file"', limit: 20, offset: 0 }),
    days: await s.views.dailyActivity('2025-01-01', '2026-12-31', {}),
    bookmarks: await s.views.bookmarks(page),
  };
}

for (const name of ['sqlite', 'postgres'] as EngineName[]) {
  const engine = testEngine(name);
  const describeEngine = engine.skip ? describe.skip : describe;
  const title = `${name}: stores of earlier schema versions${engine.skip ? ` (skipped: ${engine.skip})` : ''}`;
  const open: Store[] = [];
  let dataDir = '';

  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await engine.cleanup();
  });
  afterAll(() => engine.stop());

  describeEngine(title, () => {
    it(
      'open and migrate up to the latest version, every view answering as before',
      { timeout: 300_000 },
      async () => {
        dataDir = await mkdtemp(path.join(os.tmpdir(), 'ct-older-stores-'));
        const env = await engine.serverEnv();
        const reopen = async () => {
          const s = await openStore({ dataDir, env });
          open.push(s);
          return s;
        };
        const closeAll = () => Promise.all(open.splice(0).map((s) => s.close()));
        let store = await reopen();
        expect((await createMigrator(store).up()).error).toBeUndefined();
        await ingestTree({
          root: claudeCorpusDir,
          sink: storeSink(store),
          hostname: 'h',
          source: 'backfill',
          provenance: 'backfilled',
        });
        const before = await answers(store);
        expect(before.list.total).toBeGreaterThan(20);
        expect(before.search.total).toBeGreaterThan(0);
        expect(before.allTurns.total).toBeGreaterThan(0);

        // The versions before each migration that reshapes a view's tables, and an empty schema.
        const older = MIGRATIONS.filter((m) => m.version > LAST_MATERIALIZING).map((m) => m.version - 1);
        for (const version of [...older.reverse(), 0]) {
          const down = await createMigrator(store).down({ steps: LATEST - version });
          expect(down.error, `down to ${version}`).toBeUndefined();
          await closeAll();

          store = await reopen();
          const migrator = createMigrator(store);
          const status = await migrator.status();
          expect(status.currentVersion).toBe(version);
          expect(status.pending.map((p) => p.version)).toEqual(
            MIGRATIONS.filter((m) => m.version > version).map((m) => m.version),
          );
          const dry = await migrator.up({ dryRun: true });
          expect(dry.steps.every((s) => s.status === 'planned')).toBe(true);
          expect((await migrator.status()).currentVersion).toBe(version);
          const up = await migrator.up();
          expect(up.error, `up from ${version}`).toBeUndefined();
          expect(up).toMatchObject({ from: version, to: LATEST });
          expect(await answers(store), `migrated up from ${version}`).toEqual(before);
        }
      },
    );
  });
}
