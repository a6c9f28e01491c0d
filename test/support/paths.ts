import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (found upward, so this works from src and from dist) and the shared corpus. */
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json')) || path.basename(dir) === 'dist') {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${start}`);
    dir = up;
  }
  return dir;
}

export const repoRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const corpusDir = process.env.CT_CORPUS_DIR ?? path.resolve(repoRoot, '../shared/corpus');
export const claudeCorpusDir = path.join(corpusDir, 'claude-code');
