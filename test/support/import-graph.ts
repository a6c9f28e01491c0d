/**
 * The import graph of a source file, read from the TypeScript sources (type-only imports left
 * out): which of our files it reaches and which packages they import. What a process loads at
 * start-up is its entry's static graph; `dynamic: true` follows `import()` too, for what it may
 * load later.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

export interface ImportsOf {
  static: string[];
  dynamic: string[];
}

export function importsOf(file: string): ImportsOf {
  // Comment lines left out: an example in a doc comment is no import.
  const src = readFileSync(file, 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '');
  const found: ImportsOf = { static: [], dynamic: [] };
  for (const m of src.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm))
    found.static.push(m[1]!);
  for (const m of src.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.static.push(m[1]!);
  for (const m of src.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.dynamic.push(m[1]!);
  return found;
}

/** A relative import's source file (`./x.js` is written for `./x.ts`). */
export const resolveImport = (from: string, spec: string) =>
  path.resolve(path.dirname(from), spec.replace(/\.js$/, '.ts'));

export interface ImportGraph {
  /** Our source files reached, absolute. */
  files: Set<string>;
  /** Package imported → the first file (relative to the repository) seen importing it. */
  packages: Map<string, string>;
}

export function importGraph(entries: string[], options: { dynamic: boolean }): ImportGraph {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const found = importsOf(file);
    for (const spec of options.dynamic ? [...found.static, ...found.dynamic] : found.static) {
      if (spec.startsWith('.')) visit(resolveImport(file, spec));
      else if (!spec.startsWith('node:') && !packages.has(spec))
        packages.set(spec, path.relative(repoRoot, file));
    }
  };
  for (const e of entries) visit(e);
  return { files, packages };
}

/** `pkg (from src/x.ts)` for each package the pattern matches. */
export const packagesMatching = (graph: ImportGraph, pattern: RegExp) =>
  [...graph.packages].filter(([p]) => pattern.test(p)).map(([p, from]) => `${p} (from ${from})`);
