/**
 * `transcripts forget <id>…`: remove sessions for good (POST /api/sessions/{id}/forget). The store
 * keeps a tombstone, so the watcher, backfill, hooks and imports never record them again;
 * `--purge-source` also deletes their transcript files under ~/.claude/projects (the CLI does that,
 * on this machine: the API never writes into a home directory).
 */
import { rm } from 'node:fs/promises';
import { relative, resolve, isAbsolute } from 'node:path';
import { annotationsApi } from '../../client/annotations-client.js';
import { claudeProjectsDir } from '../../config/paths.js';
import { defineCommand } from '../command.js';
import { idsOf, resolveAll } from './shared/annotation-refs.js';
import { plural } from './shared/format.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface ForgetOptions {
  refs: string[];
  purgeSource: boolean;
  json: boolean;
  webapi?: string;
}

interface Cursor {
  files?: Record<string, { path?: string }>;
}

/** Whether `file` lies inside `dir`. */
function inside(dir: string, file: string): boolean {
  const rel = relative(resolve(dir), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

export const forgetCommand = defineCommand<ForgetOptions>({
  name: 'forget',
  summary: 'Remove sessions for good: nothing records them again',
  description:
    "Removes each session's documents (its star, tags, note and bookmarks too), stored transcript objects, " +
    'list and search rows, and leaves a tombstone: the watcher, backfill, the first-start import, hooks and ' +
    '`transcripts import` never bring the session back. Tombstones travel in bundles. `transcripts forgotten` ' +
    'lists them, `transcripts unforget` lifts one. --purge-source also deletes the original transcript files ' +
    'under ~/.claude/projects (only there).',
  examples: ['transcripts forget 5c0375b4', 'transcripts forget 5c0375b4 --purge-source'],
  args: [{ name: '<id...>', description: 'session ids or unique prefixes', apiParams: ['id'] }],
  options: [
    { flags: '--purge-source', description: 'also delete the transcript files under ~/.claude/projects' },
    jsonOption,
    webapiOption,
  ],
  parse: (raw, args) => ({
    refs: idsOf(args),
    purgeSource: raw.purgeSource === true,
    json: raw.json === true,
    webapi: webapiOf(raw),
  }),
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const api = annotationsApi(client);
    const ids = await resolveAll(client, options.refs);
    const projects = claudeProjectsDir(ctx.env);
    const results = [];
    for (const id of ids) {
      // Where the session was read from, asked before its ingest state goes with it.
      const cursor = options.purgeSource ? await client.getLocal<Cursor>(`_local/ingest:${id}`) : null;
      const r = await api.forget(id);
      const purged: string[] = [];
      const kept: string[] = [];
      for (const f of Object.values(cursor?.files ?? {})) {
        if (!f.path) continue;
        if (!inside(projects, f.path)) {
          kept.push(f.path);
          continue;
        }
        await rm(f.path, { force: true });
        purged.push(f.path);
      }
      results.push({ ...r, purgedSources: purged, keptSources: kept });
      if (!options.json) {
        ctx.io.out(
          `forgot ${id}: ${plural(r.documents, 'document')} and ${plural(r.objects, 'object')} removed` +
            (r.tombstoned ? '' : ' (it was already forgotten)'),
        );
        for (const p of purged) ctx.io.out(`  deleted ${p}`);
        for (const p of kept) ctx.io.err(`  kept ${p}: not under ${projects}`);
      }
    }
    if (options.json) ctx.io.out(JSON.stringify(results, null, 2));
    return 0;
  },
});
