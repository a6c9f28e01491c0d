/** What `transcripts import` does (its spec, ../import.ts, imports this when it runs). */
import { MANIFEST_FILE } from '../../../bundle/format.js';
import type { Manifest } from '../../../bundle/manifest.js';
import { describeApiUrl } from '../../../config/api-url.js';
import type { CommandContext } from '../../command.js';
import type { ImportOptions } from '../import.js';
import { BundleError } from '../shared/bundle-error.js';
import { formatBytes, plural } from '../shared/format.js';
import { checkCompatibility, readManifest, verifyFiles } from '../shared/read-bundle.js';
import { hasWork, type ImportPlan, planImport, writeImport } from '../shared/restore-bundle.js';

/** Instance-local note of an import in progress or done, keyed by the manifest's sha256. */
interface ImportNote {
  state: 'writing' | 'done';
  startedAt: string;
  finishedAt?: string;
  bundle: { createdAt: string; source: string; sessions: number; documents: number };
}

export async function runImport(options: ImportOptions, ctx: CommandContext): Promise<number> {
  const progress = { writing: false };
  try {
    return await importBundle(options, ctx, progress);
  } catch (err) {
    if (err instanceof BundleError && !progress.writing) {
      ctx.io.err(`import refused: ${err.message}`);
      ctx.io.err('nothing was written');
      return 1;
    }
    // Every write is idempotent: running the same import again completes it.
    if (progress.writing) ctx.io.err('the import stopped partway; run the same command again to complete it');
    if (err instanceof BundleError) {
      ctx.io.err(`import failed: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

async function importBundle(
  options: ImportOptions,
  ctx: CommandContext,
  progress: { writing: boolean },
): Promise<number> {
  const { io, signal } = ctx;
  const { client, resolution } = ctx.client(options.webapi);
  const target = describeApiUrl(resolution);
  const suffix = resolution.source === 'flag' ? ` --webapi ${resolution.url}` : '';

  // 1. Checks. A refusal here throws BundleError: nothing has been written.
  const { manifest, id, unverified } = await readManifest(options.dir, signal);
  if (unverified)
    io.err(
      `warning: ${MANIFEST_FILE} holds no file list, so there are no checksums to verify: the files are ` +
        'imported as found (each document line is still checked)',
    );
  await client.health(); // a target that is down fails here, naming the address and why it was chosen
  const targetSchema = await client.migrateStatus();
  const note = checkCompatibility(manifest, targetSchema, suffix);
  let checked = 0;
  // The sizes and sha256 of a completed manifest were just read from these very files.
  if (!unverified) {
    const verify = io.progress('import: checking');
    try {
      checked = await verifyFiles(options.dir, manifest, options.blobs, verify, signal);
    } finally {
      verify.stop();
    }
  }
  // What the comparison and the writes both read.
  const bundle = { client, dir: options.dir, manifest, blobs: options.blobs, signal };
  const planBar = io.progress('import: comparing');
  let plan: ImportPlan;
  try {
    plan = await planImport({ ...bundle, progress: planBar });
  } finally {
    planBar.stop();
  }

  io.out(describeBundle(options.dir, manifest, unverified));
  io.out(
    `checked: format ${manifest.formatVersion}, schema version ${manifest.schemaVersion} (target at ${targetSchema.currentVersion}), ` +
      (unverified
        ? 'no checksums (the manifest lists no files)'
        : `${plural(checked, 'checksum')}${options.blobs ? '' : ' (objects not read: --no-blobs)'}`) +
      ', every document line',
  );
  if (note) io.out(`note: ${note}`);

  if (options.dryRun) {
    io.out(`dry run against ${target}:`);
    printPlan(io.out, plan, options.blobs);
    io.out('nothing written');
    // The exit status the import itself would have.
    return reportConflicts(ctx, plan.conflicts, true);
  }

  // 2. Writes: only what the target lacks. The note lets a re-run after a kill finish the reindex.
  const noteId = `_local/bundle-import/${id.slice(0, 32)}`;
  const previous = await client.getLocal<ImportNote>(noteId);
  if (!hasWork(plan) && previous?.state !== 'writing') {
    io.out(
      `nothing to import: ${target} already holds the ${plural(plan.docs.unchanged, 'document')} and ` +
        `${plural(plan.objects.filter((p) => p.status === 'unchanged').length, 'object')} of this bundle` +
        (plan.conflicts.size
          ? `, and holds the sessions of the other ${plural(plan.docs.skipped + plan.docs.conflict, 'document')} in another version`
          : '') +
        '; nothing written',
    );
    forgottenLine(io.out, plan);
    return reportConflicts(ctx, plan.conflicts);
  }
  const startedAt = new Date().toISOString();
  const bundleInfo = {
    createdAt: manifest.createdAt,
    source: manifest.source.url,
    sessions: manifest.counts.sessions,
    documents: manifest.counts.documents,
  };
  progress.writing = true;
  await client.ingestDocs(
    [],
    [{ id: noteId, value: { state: 'writing', startedAt, bundle: bundleInfo } satisfies ImportNote }],
  );

  const objectBar = io.progress('import: objects');
  const docBar = io.progress('import: documents');
  let outcome;
  try {
    outcome = await writeImport({ ...bundle, plan, progress: docBar, objectProgress: objectBar });
  } finally {
    objectBar.stop();
    docBar.stop();
  }

  let indexed = 'search not reindexed: search is off on the target (its full-text migration is pending)';
  if ((await client.health()).search.enabled) {
    const r = await client.reindex();
    indexed = `search reindexed: ${plural(r.entries, 'entry', 'entries')} in ${plural(r.sessions, 'session')}`;
  }
  await client.ingestDocs(
    [],
    [
      {
        id: noteId,
        value: {
          state: 'done',
          startedAt,
          finishedAt: new Date().toISOString(),
          bundle: bundleInfo,
        } satisfies ImportNote,
      },
    ],
  );

  const d = outcome.docs;
  const ob = outcome.objects;
  io.out(`imported into ${target}:`);
  io.out(
    `  documents: ${d.written} written, ${d.unchanged} unchanged, ${d.conflict} conflicting, ${d.skipped} skipped (conflicting sessions)`,
  );
  if (options.blobs)
    io.out(
      `  objects:   ${ob.uploaded} uploaded (${formatBytes(ob.bytes)}), ${ob.unchanged} unchanged, ${ob.skipped} skipped (conflicting sessions)`,
    );
  else io.out('  objects:   none (--no-blobs)');
  forgottenLine(io.out, plan);
  const leftovers = plan.objects.filter((p) => p.replaces).length;
  if (leftovers)
    io.out(
      `  (${plural(leftovers, 'object')} left on the target by an interrupted import, with no document of ${leftovers === 1 ? 'its' : 'their'} session, replaced)`,
    );
  io.out(`  ${indexed}`);
  const conflicts = new Map([...plan.conflicts, ...outcome.lateConflicts]);
  return reportConflicts(ctx, conflicts);
}

function describeBundle(dir: string, m: Manifest, unverified: boolean): string {
  return (
    `bundle ${dir}: ${plural(m.counts.sessions, 'session')}, ${plural(m.counts.documents, 'document')}, ` +
    `${plural(m.counts.objects, 'object')} (${formatBytes(m.counts.objectBytes)}), ` +
    (unverified
      ? `schema version ${m.schemaVersion}; its manifest names no source or date`
      : `taken ${m.createdAt} from ${m.source.url} (transcripts ${m.source.version})`)
  );
}

function printPlan(out: (line: string) => void, plan: ImportPlan, blobs: boolean): void {
  const objs = { new: 0, unchanged: 0, conflict: 0, bytes: 0 };
  for (const p of plan.objects) {
    objs[p.status]++;
    if (p.status === 'new') objs.bytes += p.bytes;
  }
  out(
    `  documents: ${plan.docs.new} new, ${plan.docs.unchanged} unchanged, ${plan.docs.conflict} conflicting` +
      (plan.docs.skipped ? `, ${plan.docs.skipped} skipped (the rest of the conflicting sessions)` : ''),
  );
  if (blobs)
    out(
      `  objects:   ${objs.new} new (${formatBytes(objs.bytes)}), ${objs.unchanged} unchanged, ${objs.conflict} conflicting`,
    );
  else out('  objects:   none (--no-blobs)');
  forgottenLine(out, plan);
  const leftovers = plan.objects.filter((p) => p.replaces).length;
  if (blobs && leftovers)
    out(
      `  ${plural(leftovers, 'object')} on the target ${leftovers === 1 ? 'belongs' : 'belong'} to no stored session (left by an interrupted import) and would be replaced`,
    );
  if (plan.conflicts.size)
    out(
      `  ${plural(plan.conflicts.size, 'session')} ${plan.conflicts.size === 1 ? 'differs' : 'differ'} from the target's and would be left as the target has ${plan.conflicts.size === 1 ? 'it' : 'them'} (nothing of ${plan.conflicts.size === 1 ? 'it' : 'them'} written)`,
    );
}

function reportConflicts(ctx: CommandContext, conflicts: Map<string, string>, dryRun = false): number {
  if (conflicts.size === 0) return 0;
  const one = conflicts.size === 1;
  const left = dryRun ? 'would be' : one ? 'was' : 'were';
  ctx.io.err(
    `${plural(conflicts.size, 'session')} ${one ? 'differs' : 'differ'} from what the target holds and ${left} left as the target has ${one ? 'it' : 'them'}:`,
  );
  const bySession = [...conflicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [sessionId, why] of bySession.slice(0, 20)) ctx.io.err(`  ${sessionId}: ${why}`);
  if (conflicts.size > 20) ctx.io.err(`  … and ${conflicts.size - 20} more`);
  return 1;
}

/** Forgotten sessions are left out, not conflicts: a tombstone outranks every source. */
function forgottenLine(out: (line: string) => void, plan: ImportPlan): void {
  if (plan.forgotten.size === 0) return;
  out(
    `  ${plural(plan.forgotten.size, 'session')} forgotten (on the target or by the bundle's tombstones): ` +
      `nothing of ${plan.forgotten.size === 1 ? 'it' : 'them'} written but the tombstone` +
      (plan.docs.forgotten ? ` (${plural(plan.docs.forgotten, 'document')} left out)` : ''),
  );
}
