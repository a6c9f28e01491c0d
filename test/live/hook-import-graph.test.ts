/**
 * The hook's start-up cost is mostly what it imports: Claude Code waits for every call. This
 * walks the import graph of the hook's entry (static and dynamic imports, types excluded) and
 * checks it stays free of the heavy parts: zod, commander, the HTTP server, the store engines,
 * the watcher.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, packagesMatching } from '../support/import-graph.js';
import { repoRoot } from '../support/paths.js';

const HEAVY = /^(zod|commander|hono|@hono\/|@scalar\/|better-sqlite3|pg|@aws-sdk\/|chokidar|cli-progress)/;

describe('the hook import graph', () => {
  it('loads no heavy package', () => {
    const g = importGraph([path.join(repoRoot, 'src', 'cli', 'hook-main.ts')], { dynamic: true });
    expect(g.files.size).toBeGreaterThan(10);
    // OpenCode's database reader imports better-sqlite3 inside the function that opens one
    // (read-db.ts); the hook reads Claude Code's transcripts only and never calls it.
    expect(
      packagesMatching(g, HEAVY).filter(
        (p) => p !== 'better-sqlite3 (from src/ingest/providers/opencode/read-db.ts)',
      ),
    ).toEqual([]);
    const rel = [...g.files].map((f) => path.relative(repoRoot, f));
    // Of the store, only its contract and the reading of a file range (node:fs alone) that the
    // HTTP sink shares with the engines.
    const light = new Set(['src/store/contract.ts', 'src/store/objects-common/file-range.ts']);
    expect(rel.filter((f) => f.startsWith('src/store/') && !light.has(f))).toEqual([]);
    expect(rel.some((f) => f.startsWith('src/api/') || f.startsWith('src/server/'))).toBe(false);
  });
});
