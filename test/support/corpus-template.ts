/**
 * The shared corpus, ingested once per run and engine by setup-corpus.ts: what a copy needs.
 * Tests reach it through their engine (`engine.openCorpus()`, `engine.corpusServerEnv(root)` in
 * engines.ts) or `startCorpusServer` (api-server.ts).
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

/** The host the corpus's sessions are recorded from (`backfill --host test-host`). */
export const CORPUS_HOST = 'test-host';

export interface CorpusTemplates {
  /** A closed SQLite data dir. */
  sqlite?: string;
  /** A database to copy with `CREATE DATABASE … TEMPLATE`, its schema, and the S3 bucket on disk. */
  postgres?: { database: string; schema: string; bucketDir: string };
}

/** This run's template for an engine; fails, saying why, in a layer that does not make them. */
export function corpusTemplate<E extends keyof CorpusTemplates>(engine: E): NonNullable<CorpusTemplates[E]> {
  const templates = inject('corpusTemplates') as CorpusTemplates | undefined;
  const template = templates?.[engine];
  if (!template)
    throw new Error(
      `no ${engine} corpus template in this run: the test's layer must list test/support/setup-corpus.ts (vitest.config.ts)`,
    );
  return template;
}

/** Copies the SQLite template into `dataDir` (which must not exist yet, or be empty). */
export async function copySqliteCorpus(dataDir: string): Promise<void> {
  await cp(corpusTemplate('sqlite'), dataDir, { recursive: true });
}

/** Where `transcripts serve` keeps its data under a test root (CT_HOME is `<root>/ct`). */
export function serverDataDir(root: string): string {
  return path.join(root, 'ct', 'data');
}
