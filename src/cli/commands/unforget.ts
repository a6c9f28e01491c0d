/** `transcripts unforget <id>…`: lift tombstones, so the next backfill reads the sessions again. */
import { annotationsApi } from '../../client/annotations-client.js';
import { defineCommand } from '../command.js';
import { idsOf } from './shared/annotation-refs.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface UnforgetOptions {
  ids: string[];
  json: boolean;
  webapi?: string;
}

export const unforgetCommand = defineCommand<UnforgetOptions>({
  name: 'unforget',
  summary: "Lift a forgotten session's tombstone: the next backfill reads it again",
  description:
    'Takes full session ids, as `transcripts forgotten` lists them. What was removed stays removed.',
  examples: ['transcripts unforget 5c0375b4-57a5-4f26-b12d-d022ee4e51b7'],
  args: [{ name: '<id...>', description: 'forgotten session ids', apiParams: ['id'] }],
  options: [jsonOption, webapiOption],
  parse: (raw, args) => ({ ids: idsOf(args), json: raw.json === true, webapi: webapiOf(raw) }),
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const api = annotationsApi(client);
    const results = [];
    for (const id of options.ids) results.push(await api.unforget(id));
    if (options.json) ctx.io.out(JSON.stringify(results, null, 2));
    else for (const r of results) ctx.io.out(`unforgot ${r.sessionId}: the next backfill reads it again`);
    return 0;
  },
});
