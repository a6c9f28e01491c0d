/** `transcripts forgotten`: the forgotten sessions (GET /api/forgotten). */
import { annotationsApi } from '../../client/annotations-client.js';
import { defineCommand } from '../command.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface ForgottenOptions {
  json: boolean;
  webapi?: string;
}

export const forgottenCommand = defineCommand<ForgottenOptions>({
  name: 'forgotten',
  summary: 'List forgotten sessions (their tombstones)',
  examples: ['transcripts forgotten', 'transcripts forgotten --json'],
  options: [jsonOption, webapiOption],
  parse: (raw) => ({ json: raw.json === true, webapi: webapiOf(raw) }),
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const r = await annotationsApi(client).forgotten();
    if (options.json) ctx.io.out(JSON.stringify(r, null, 2));
    else if (r.total === 0) ctx.io.out('no forgotten sessions');
    else for (const f of r.forgotten) ctx.io.out(`${f.sessionId}  forgotten ${f.forgottenAt}`);
    return 0;
  },
});
