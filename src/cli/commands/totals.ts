/**
 * `transcripts totals`: what the sessions the filters select used — tokens by model, and what
 * they cost at the instance's prices (GET /api/totals; prices in docs/settings.md).
 */
import type { SessionFilters, Totals } from '../../client/api-client.js';
import { tokenSum } from '../../core/usage.js';
import { defineCommand } from '../command.js';
import { formatTotalsCost, modelCost, guardClosedPipe, outputWidth, modelLabel } from './shared/format.js';
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

export interface TotalsOptions {
  filters: SessionFilters;
  text?: string;
  json: boolean;
  webapi?: string;
}

type ModelRow = Totals['byModel'][number];

const n = (x: number) => x.toLocaleString('en-US');

/** The closing line: sessions, tokens and cost, as the web UI's list says them. */
export function totalsLine(t: Totals): string {
  const sessions = `${n(t.sessions)} session${t.sessions === 1 ? '' : 's'}`;
  return `${sessions}, ${n(tokenSum(t.tokens))} tokens, ${formatTotalsCost(t)}`;
}

export const totalsCommand = defineCommand<TotalsOptions>({
  name: 'totals',
  summary: 'Show what the filtered sessions used: tokens by model, and their cost',
  description:
    "The sessions the filters select (those of `transcripts sessions`), summed: each model's tokens and " +
    'the sessions it wrote in, most tokens first, with its cost at list prices, or "no price" for a model ' +
    "the instance has none for (config.json's `prices` adds them); then one line for them all. A model " +
    'filter selects the sessions that used the model, and their other models count too. The cost is an ' +
    'estimate (cache writes at the five-minute rate, no long-context surcharge). --json prints the API ' +
    'answer (GET /api/totals: {sessions, tokens, usd, complete, byModel}).',
  examples: [
    'transcripts totals',
    'transcripts totals --from 2025-11-01 --to 2025-11-30',
    'transcripts totals --cwd ~/src/app --json | jq .usd',
  ],
  options: [...filterOptions, textOption, jsonOption, webapiOption],
  parse(raw) {
    return { filters: parseFilters(raw), text: textOf(raw), json: raw.json === true, webapi: webapiOf(raw) };
  },
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const t = await client.totals({ ...options.filters, text: options.text });
    if (options.json) {
      ctx.io.out(JSON.stringify(t, null, 2));
      return 0;
    }
    if (t.sessions === 0) {
      const filtered = Object.keys(options.filters).length > 0 || options.text !== undefined;
      ctx.io.out(filtered ? 'no sessions match the filters' : 'no sessions recorded');
      return 0;
    }
    const right = 'right' as const;
    const lines = formatTable<ModelRow>(
      [
        { header: 'MODEL', value: (m) => modelLabel(m.model), flex: true, min: 12 },
        { header: 'SESSIONS', value: (m) => n(m.sessions), align: right },
        { header: 'INPUT', value: (m) => n(m.tokens.input), align: right },
        { header: 'OUTPUT', value: (m) => n(m.tokens.output), align: right },
        { header: 'CACHE WRITE', value: (m) => n(m.tokens.cacheWrite), align: right },
        { header: 'CACHE READ', value: (m) => n(m.tokens.cacheRead), align: right },
        { header: 'COST', value: (m) => modelCost(m.usd), align: right },
      ],
      t.byModel,
      outputWidth(ctx.io, ctx.env),
    );
    for (const l of lines) ctx.io.out(l);
    ctx.io.out(`total: ${totalsLine(t)}`);
    return 0;
  },
});
