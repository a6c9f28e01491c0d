/** `transcripts star <id>…`: star sessions (PUT /api/sessions/{id}/star). */
import { annotationsApi } from '../../client/annotations-client.js';
import { defineCommand } from '../command.js';
import { idsOf, resolveAll } from './shared/annotation-refs.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface StarOptions {
  refs: string[];
  json: boolean;
  webapi?: string;
}

export const starCommand = defineCommand<StarOptions>({
  name: 'star',
  summary: 'Star sessions',
  description:
    'Marks each session with a star; `transcripts sessions --starred` lists them. Starring twice changes nothing.',
  examples: ['transcripts star 5c0375b4', 'transcripts star 5c0375b4 9f1e'],
  args: [{ name: '<id...>', description: 'session ids or unique prefixes', apiParams: ['id'] }],
  options: [jsonOption, webapiOption],
  parse: (raw, args) => ({ refs: idsOf(args), json: raw.json === true, webapi: webapiOf(raw) }),
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const api = annotationsApi(client);
    const results = [];
    for (const id of await resolveAll(client, options.refs)) results.push(await api.star(id));
    if (options.json) ctx.io.out(JSON.stringify(results, null, 2));
    else for (const r of results) ctx.io.out(`★ ${r.sessionId}`);
    return 0;
  },
});
