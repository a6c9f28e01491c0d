/**
 * `transcripts reindex`: rebuild the full-text search index from the stored chunks, through the API
 * (POST /api/ingest/reindex). The server does the work in one request, so the progress shown is
 * the elapsed time on a terminal (shared/elapsed.ts) and a start line otherwise.
 */
import { describeApiUrl } from '../../config/api-url.js';
import { defineCommand } from '../command.js';
import { withElapsed } from './shared/elapsed.js';
import { plural } from './shared/format.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface ReindexOptions {
  json: boolean;
  webapi?: string;
}

export const reindexCommand = defineCommand<ReindexOptions>({
  name: 'reindex',
  summary: 'Rebuild the search index',
  description:
    'Rebuilds the full-text index from every stored transcript chunk and reports how many entries and sessions ' +
    'it indexed. Needs the full-text migration applied (see `transcripts migrate status`).',
  examples: ['transcripts reindex', 'transcripts reindex --webapi http://nas.local:7650'],
  options: [jsonOption, webapiOption],
  parse: (raw) => ({ json: raw.json === true, webapi: webapiOf(raw) }),
  async run(options, ctx) {
    const { client, resolution } = ctx.client(options.webapi);
    await client.health(); // say which address failed before a long wait
    const started = Date.now();
    if (!options.json) ctx.io.err(`reindexing search at ${describeApiUrl(resolution)}…`);
    const result = await withElapsed(ctx.io, 'reindexing', client.reindex(), options.json);
    const seconds = (Date.now() - started) / 1000;
    if (options.json) ctx.io.out(JSON.stringify({ ...result, seconds }));
    else
      ctx.io.out(
        `indexed ${plural(result.entries, 'entry', 'entries')} in ${plural(result.sessions, 'session')} (${seconds.toFixed(1)}s)`,
      );
    return 0;
  },
});
