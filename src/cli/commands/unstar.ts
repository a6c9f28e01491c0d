/** `transcripts unstar <id>…`: remove sessions' stars (DELETE /api/sessions/{id}/star). */
import { annotationsApi } from '../../client/annotations-client.js';
import { defineCommand } from '../command.js';
import { idsOf, resolveAll } from './shared/annotation-refs.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface UnstarOptions {
  refs: string[];
  json: boolean;
  webapi?: string;
}

export const unstarCommand = defineCommand<UnstarOptions>({
  name: 'unstar',
  summary: 'Remove the star from sessions',
  examples: ['transcripts unstar 5c0375b4'],
  args: [{ name: '<id...>', description: 'session ids or unique prefixes', apiParams: ['id'] }],
  options: [jsonOption, webapiOption],
  parse: (raw, args) => ({ refs: idsOf(args), json: raw.json === true, webapi: webapiOf(raw) }),
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const api = annotationsApi(client);
    const results = [];
    for (const id of await resolveAll(client, options.refs)) results.push(await api.unstar(id));
    if (options.json) ctx.io.out(JSON.stringify(results, null, 2));
    else for (const r of results) ctx.io.out(`☆ ${r.sessionId}`);
    return 0;
  },
});
