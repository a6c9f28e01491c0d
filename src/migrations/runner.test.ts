import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTree } from '../ingest/ingest-tree.js';
import { storeSink } from '../ingest/sink.js';
import { ViewMissingError, type Store } from '../store/contract.js';
import { openStore } from '../store/open-store.js';
import { claudeCorpusDir } from '../../test/support/paths.js';
import { MIGRATIONS } from './index.js';
import type { Migration } from './migration.js';
import { createMigrator, docTransformsBetween, MigrationRangeError } from './runner.js';

let tmp: string;
let store: Store;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-migrate-'));
  store = await openStore({ dataDir: tmp });
});
afterEach(async () => {
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Everything the views answer, as one comparable value. */
async function viewAnswers(s: Store) {
  const list = await s.views.listSessions({}, { limit: 1000, offset: 0 });
  const ids = list.rows.map((r) => r.summary.sessionId);
  const first = ids[0]!;
  return {
    total: list.total,
    ids,
    filtered: (
      await s.views.listSessions({ hostname: 'h', from: '2025-07-01T00:00:00Z' }, { limit: 50, offset: 0 })
    ).total,
    page: await s.views.transcriptPage(first, 'transcript.jsonl', { offset: 0, limit: 50 }),
    turns: await s.views.turns(first, undefined, { offset: 0, limit: 50 }),
    search: await s.views.search({ q: 'function', limit: 20, offset: 0 }),
    days: await s.views.dailyActivity('2025-01-01', '2026-12-31', {}),
  };
}

const LATEST = MIGRATIONS.at(-1)!.version;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('migration runner', () => {
  it('has view-only migrations numbered 1..latest', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(range(1, LATEST));
    expect(MIGRATIONS.every((m) => !m.transformsDocs)).toBe(true);
  });

  it('reports status, applies up to a version, and reverts steps', async () => {
    const m = createMigrator(store);
    let status = await m.status();
    expect(status.currentVersion).toBe(0);
    expect(status.pending).toHaveLength(LATEST);

    const dry = await m.up({ dryRun: true });
    expect(dry.steps.every((s) => s.status === 'planned')).toBe(true);
    expect((await m.status()).currentVersion).toBe(0);

    const up3 = await m.up({ to: 3 });
    expect(up3.to).toBe(3);
    expect(up3.steps.map((s) => s.status)).toEqual(['applied', 'applied', 'applied']);
    status = await m.status();
    expect(status.currentVersion).toBe(3);
    expect(status.pending.map((p) => p.version)).toEqual(range(4, LATEST));
    expect(status.applied.every((a) => a.at !== null)).toBe(true);
    expect(await store.docs.get('_design/session-rollup')).not.toBeNull();

    await m.up();
    // Down to 9: the daily activity (10) and every later view go.
    const down = await m.down({ steps: LATEST - 9 });
    expect(down.steps.map((s) => s.version)).toEqual(range(10, LATEST).reverse());
    expect((await m.status()).pending.map((p) => p.version)).toEqual(range(10, LATEST));
    expect(await store.docs.get('_design/daily-activity')).toBeNull();
    await expect(store.views.dailyActivity('2025-01-01', '2025-01-02', {})).rejects.toBeInstanceOf(
      ViewMissingError,
    );
  });

  it('rejects impossible targets with a range error', async () => {
    const m = createMigrator(store);
    await expect(m.up({ to: LATEST + 1 })).rejects.toBeInstanceOf(MigrationRangeError);
    await expect(m.up({ to: -1 })).rejects.toBeInstanceOf(MigrationRangeError);
    await m.up({ to: 5 });
    await expect(m.up({ to: 2 })).rejects.toBeInstanceOf(MigrationRangeError);
    await expect(m.down({ steps: 6 })).rejects.toBeInstanceOf(MigrationRangeError);
    await expect(m.down({ steps: 1.5 })).rejects.toBeInstanceOf(MigrationRangeError);
  });

  it('down then up rebuilds identical view answers over the corpus', async () => {
    const m = createMigrator(store);
    await m.up();
    await ingestTree({
      root: claudeCorpusDir,
      sink: storeSink(store),
      hostname: 'h',
      source: 'backfill',
      provenance: 'backfilled',
    });
    const before = await viewAnswers(store);
    expect(before.total).toBeGreaterThan(20);
    expect(before.search.total).toBeGreaterThan(0);
    await m.down({ steps: LATEST });
    expect((await m.status()).currentVersion).toBe(0);
    await m.up();
    expect(await viewAnswers(store)).toEqual(before);
  });

  it('stops at a failing step, keeps the marker consistent, and says which step failed', async () => {
    const failing: Migration = {
      version: LATEST + 1,
      name: 'always-fails',
      transformsDocs: true,
      up: () => Promise.reject(new Error('boom')),
      down: () => Promise.resolve(),
    };
    const m = createMigrator(store, [...MIGRATIONS, failing]);
    const r = await m.up();
    expect(r.error).toContain(`${LATEST + 1} (always-fails)`);
    expect(r.to).toBe(LATEST);
    expect(r.steps.at(-1)).toMatchObject({ version: LATEST + 1, status: 'failed', error: 'boom' });
    expect((await m.status()).currentVersion).toBe(LATEST);
    expect(docTransformsBetween(3, LATEST + 1, [...MIGRATIONS, failing]).map((x) => x.version)).toEqual([
      LATEST + 1,
    ]);
    expect(docTransformsBetween(0, LATEST)).toEqual([]);
  });
});
