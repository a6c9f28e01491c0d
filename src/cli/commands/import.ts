/**
 * `transcripts import <dir>`: restore a bundle through the API (`/api/ingest/*`), then reindex
 * search. Everything is checked before anything is written — the manifest and its format, the
 * schema version against the target's, every checksum, every document line — and `--dry-run`
 * stops after the plan. Importing the same bundle again writes nothing and says so.
 */
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { webapiOf, webapiOption } from './shared/options.js';

export interface ImportOptions {
  dir: string;
  dryRun: boolean;
  blobs: boolean;
  webapi?: string;
}

export const importCommand = defineCommand<ImportOptions>({
  name: 'import',
  summary: 'Restore a bundle written by `transcripts export`',
  description:
    'Checks the bundle before writing anything: manifest.json present and of a known format, every sha256 ' +
    '(a manifest that lists no files, only the schemaVersion the format requires, is accepted with a ' +
    'warning: there is nothing to verify the files against), ' +
    'every document line, and a schema version the target can take (a newer bundle is refused with what ' +
    'fixes it; an older one only when a migration that rewrites documents lies between). Then uploads the ' +
    'objects, writes the documents in batches and reindexes search. Idempotent: a second import of the same ' +
    'bundle writes nothing, and an interrupted one completes when run again. A session that differs on the ' +
    'target is left as the target has it and reported. Exits 1 on any refusal, failure or conflict.',
  examples: [
    'transcripts import ~/bundles/all --dry-run',
    'transcripts import ~/bundles/all --webapi http://nas.local:7650',
    'transcripts import /tmp/docs-only --no-blobs',
  ],
  args: [{ name: '<dir>', description: 'the bundle directory' }],
  options: [
    { flags: '--dry-run', description: 'check the bundle and report what would be written; write nothing' },
    { flags: '--no-blobs', description: 'restore the documents only, not the transcript objects' },
    webapiOption,
  ],
  parse(raw, args) {
    const dir = args[0];
    if (!dir || !dir.trim()) throw new UsageError('import needs a bundle directory');
    return {
      dir: resolve(dir),
      dryRun: raw.dryRun === true,
      blobs: raw.blobs !== false,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs none of
    // the bundle code (zod's schemas, the migrations list).
    const { runImport } = await import('./import/run.js');
    return runImport(options, ctx);
  },
});
