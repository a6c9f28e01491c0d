/**
 * `transcripts facets <field>`: the values the UI's filter pickers offer for one session attribute
 * (GET /api/facets/{attribute}), each with how many of the sessions the filters select have it —
 * what to give `sessions --model`, `--host`, `--cwd`, `--source` or `--agent`.
 */
import type { Facets, SessionFilters } from '../../client/api-client.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { guardClosedPipe, outputWidth, plural } from './shared/format.js';
import {
  filterOptions,
  jsonOption,
  parseFilters,
  textOf,
  textOption,
  webapiOf,
  webapiOption,
} from './shared/options.js';
import { formatTable } from './shared/table.js';

type Attribute = Facets['attribute'];

/** The field as typed → the API's attribute: the filter flags' names, and the API's own. */
const FIELDS: Record<string, Attribute> = {
  cwd: 'cwd',
  model: 'model',
  host: 'hostname',
  hostname: 'hostname',
  source: 'source',
  agent: 'agent',
};

export interface FacetsOptions {
  attribute: Attribute;
  filters: SessionFilters;
  text?: string;
  json: boolean;
  webapi?: string;
}

export const facetsCommand = defineCommand<FacetsOptions>({
  name: 'facets',
  summary: "List a filter's values with their session counts (the UI's filter pickers)",
  description:
    'Every value of one session attribute, with how many sessions have it, most common first: cwd, model, ' +
    'host (hostname), source or agent, the values `transcripts sessions --cwd/--model/--host/--source/--agent` (and search ' +
    "and activity) take. Counts are over the sessions the filters select, the field's own filter aside " +
    '(`facets model --host laptop --model x` still lists every model used on laptop); a session with ' +
    'several models counts once for each. --json prints the API answer (GET /api/facets/{attribute}: ' +
    '{attribute, values}).',
  examples: [
    'transcripts facets model',
    'transcripts facets model --host laptop --from 2025-07-01',
    'transcripts facets host --json | jq -r ".values[].value"',
  ],
  args: [{ name: '<field>', description: 'cwd, model, host, source or agent' }],
  options: [...filterOptions, textOption, jsonOption, webapiOption],
  parse(raw, args) {
    const field = (args[0] ?? '').trim();
    const attribute = FIELDS[field];
    if (!attribute) throw new UsageError(`<field> must be cwd, model, host, source or agent, got "${field}"`);
    return {
      attribute,
      filters: parseFilters(raw),
      text: textOf(raw),
      json: raw.json === true,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const f = await client.facets(options.attribute, { ...options.filters, text: options.text });
    if (options.json) {
      ctx.io.out(JSON.stringify(f, null, 2));
      return 0;
    }
    if (f.values.length === 0) {
      const filtered = Object.keys(options.filters).length > 0 || options.text !== undefined;
      ctx.io.out(
        `no ${options.attribute} values: ${filtered ? 'no sessions match the filters' : 'no sessions recorded'}`,
      );
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
