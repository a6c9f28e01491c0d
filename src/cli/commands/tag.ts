/** `transcripts tag <id> add|rm <tag>…`: add or remove a session's tags (PATCH …/tags). */
import { annotationsApi } from '../../client/annotations-client.js';
import { tagProblem } from '../../core/annotation-rules.js';
import { UsageError } from '../errors.js';
import { defineCommand } from '../command.js';
import { resolveSessionId } from './shared/session-ref.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface TagOptions {
  ref: string;
  action: 'add' | 'rm';
  tags: string[];
  json: boolean;
  webapi?: string;
}

export const tagCommand = defineCommand<TagOptions>({
  name: 'tag',
  summary: "Add or remove a session's tags",
  description:
    'Tags are short lowercase words: a-z and 0-9, words joined by "-" or "/" (needs-review, area/api), at most ' +
    '40 characters, at most 32 on a session. Prints the tags the session then has. ' +
    '`transcripts sessions --tag <t>` lists the sessions carrying a tag.',
  examples: ['transcripts tag 5c0375b4 add bug area/api', 'transcripts tag 5c0375b4 rm bug'],
  args: [
    { name: '<id>', description: 'session id or unique prefix', apiParams: ['id'] },
    { name: '<action>', description: 'add or rm' },
    { name: '<tag...>', description: 'the tags', apiParams: ['add', 'remove'] },
  ],
  options: [jsonOption, webapiOption],
  parse(raw, args) {
    const [ref, action, ...tags] = args.map((a) => a.trim());
    if (!ref) throw new UsageError('give a session id');
    if (action !== 'add' && action !== 'rm')
      throw new UsageError(`<action> must be add or rm, got "${action ?? ''}"`);
    if (tags.length === 0) throw new UsageError('give at least one tag');
    for (const t of tags) {
      const problem = tagProblem(t);
      if (problem) throw new UsageError(problem);
    }
    return { ref, action, tags, json: raw.json === true, webapi: webapiOf(raw) };
  },
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const id = await resolveSessionId(client, options.ref);
    const r = await annotationsApi(client).tags(
      id,
      options.action === 'add' ? { add: options.tags } : { remove: options.tags },
    );
    if (options.json) ctx.io.out(JSON.stringify(r, null, 2));
    else ctx.io.out(`${r.sessionId}: ${r.tags.length ? r.tags.join(' ') : '(no tags)'}`);
    return 0;
  },
});
