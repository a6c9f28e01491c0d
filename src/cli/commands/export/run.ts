/** What `transcripts export` does (its spec, ../export.ts, imports this when it runs). */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../../bundle/format.js';
import { describeApiUrl } from '../../../config/api-url.js';
import type { CommandContext } from '../../command.js';
import type { ExportOptions } from '../export.js';
import { BundleError } from '../shared/bundle-error.js';
import { formatBytes, plural } from '../shared/format.js';
import { SessionRefError } from '../shared/session-ref.js';
import { writeBundle } from '../shared/write-bundle.js';

export async function runExport(options: ExportOptions, ctx: CommandContext): Promise<number> {
  const { client, resolution } = ctx.client(options.webapi);
  try {
    const m = await writeBundle({
      client,
      sourceUrl: resolution.url,
      dir: options.dir,
      since: options.since,
      sessions: options.sessions,
      blobs: options.blobs,
      io: ctx.io,
      signal: ctx.signal,
    });
    const types = Object.entries(m.counts.documentsByType)
      .sort()
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    ctx.io.out(
      `exported ${plural(m.counts.sessions, 'session')} from ${describeApiUrl(resolution)} into ${options.dir}: ` +
        `${plural(m.counts.documents, 'document')}${types ? ` (${types})` : ''}, ` +
        (options.blobs
          ? `${plural(m.counts.objects, 'object')} (${formatBytes(m.counts.objectBytes)})`
          : 'no objects (--no-blobs)') +
        `; schema version ${m.schemaVersion}`,
    );
    if (m.counts.sessions === 0) ctx.io.err('note: no session matched the selection; the bundle is empty');
    for (const miss of m.missingObjects)
      ctx.io.err(
        `note: session ${miss.sessionId} has no stored ${miss.names.join(', ')} on the source; exported without it (listed in the manifest)`,
      );
    return 0;
  } catch (err) {
    if (err instanceof BundleError || err instanceof SessionRefError) {
      ctx.io.err(`export refused: ${err.message}`);
      return 1;
    }
    // Whatever was written stays without a manifest, which import recognises as unfinished.
    if (
      existsSync(options.dir) &&
      !existsSync(join(options.dir, MANIFEST_FILE)) &&
      readdirSync(options.dir).length > 0
    )
      ctx.io.err(
        `note: ${options.dir} holds an unfinished bundle (no ${MANIFEST_FILE}); remove it before exporting again`,
      );
    throw err;
  }
}
