/**
 * The hook's start-up cost is mostly what it imports: Claude Code waits for every call. This
 * walks the import graph of the hook's entry (static and dynamic imports, types excluded) and
 * checks it stays free of the heavy parts: zod, commander, the HTTP server, the store engines,
 * the watcher.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

const HEAVY = /^(zod|commander|hono|@hono\/|@scalar\/|better-sqlite3|pg|@aws-sdk\/|chokidar|cli-progress)/;

function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm))
    out.push(m[1]!);
  for (const m of src.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of src.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

function graph(entry: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (!spec.startsWith('node:')) packages.set(spec, path.relative(repoRoot, file));
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the hook import graph', () => {
  it('loads no heavy package', () => {
    const { files, packages } = graph(path.join(repoRoot, 'src', 'cli', 'hook-main.ts'));
    expect(files.size).toBeGreaterThan(10);
    const heavy = [...packages].filter(([p]) => HEAVY.test(p)).map(([p, from]) => `${p} (from ${from})`);
    expect(heavy).toEqual([]);
    const rel = [...files].map((f) => path.relative(repoRoot, f));
    // Of the store, only its contract and the reading of a file range (node:fs alone) that the
    // HTTP sink shares with the engines.
    const light = new Set(['src/store/contract.ts', 'src/store/objects-common/file-range.ts']);
    expect(rel.filter((f) => f.startsWith('src/store/') && !light.has(f))).toEqual([]);
    expect(rel.some((f) => f.startsWith('src/api/') || f.startsWith('src/server/'))).toBe(false);
  });
});
