/**
 * `transcripts facets <field>`: the values the UI's filter pickers offer for one session attribute
 * (GET /api/facets/{attribute}), each with how many sessions have it — what to give `sessions
 * --model`, `--host`, `--cwd` or `--source`.
 */
import type { Facets } from '../../client/api-client.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { guardClosedPipe, outputWidth, plural } from './shared/format.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';
import { formatTable } from './shared/table.js';

type Attribute = Facets['attribute'];

/** The field as typed → the API's attribute: the filter flags' names, and the API's own. */
const FIELDS: Record<string, Attribute> = {
  cwd: 'cwd',
  model: 'model',
  host: 'hostname',
  hostname: 'hostname',
  source: 'source',
};

export interface FacetsOptions {
  attribute: Attribute;
  json: boolean;
  webapi?: string;
}

export const facetsCommand = defineCommand<FacetsOptions>({
  name: 'facets',
  summary: "List a filter's values with their session counts (the UI's filter pickers)",
  description:
    'Every value of one session attribute, with how many sessions have it, most common first: cwd, model, ' +
    'host (hostname) or source, the values `transcripts sessions --cwd/--model/--host/--source` (and search ' +
    'and activity) take. Counts are over all sessions. --json prints the API answer (GET ' +
    '/api/facets/{attribute}: {attribute, values}).',
  examples: ['transcripts facets model', 'transcripts facets host --json | jq -r ".values[].value"'],
  args: [{ name: '<field>', description: 'cwd, model, host or source' }],
  options: [jsonOption, webapiOption],
  parse(raw, args) {
    const field = (args[0] ?? '').trim();
    const attribute = FIELDS[field];
    if (!attribute) throw new UsageError(`<field> must be cwd, model, host or source, got "${field}"`);
    return { attribute, json: raw.json === true, webapi: webapiOf(raw) };
  },
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const f = await client.facets(options.attribute);
    if (options.json) {
      ctx.io.out(JSON.stringify(f, null, 2));
      return 0;
    }
    if (f.values.length === 0) {
      ctx.io.out(`no ${options.attribute} values: no sessions recorded`);
      return 0;
    }
    const header = options.attribute === 'cwd' ? 'CWD' : options.attribute.toUpperCase();
    const lines = formatTable<Facets['values'][number]>(
      [
        { header: 'SESSIONS', value: (v) => String(v.sessions), align: 'right' },
        { header, value: (v) => v.value, flex: true, min: 12 },
      ],
      f.values,
      outputWidth(ctx.io, ctx.env),
    );
    for (const l of lines) ctx.io.out(l);
    ctx.io.err(plural(f.values.length, 'value'));
    return 0;
  },
});
