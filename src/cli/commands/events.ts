/**
 * `transcripts events <id>`: a session's events in time order (GET /api/sessions/{id}/events) —
 * what the hooks recorded live, and the events rebuilt from the transcript (one per tool result)
 * — the list behind the session page's event count and its Recording card.
 */
import type { SessionEvents } from '../../client/api-client.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { guardClosedPipe, outputWidth, plural } from './shared/format.js';
import { jsonOption, pageOptions, parsePage, webapiOf, webapiOption } from './shared/options.js';
import { resolveSessionId } from './shared/session-ref.js';
import { formatTable } from './shared/table.js';

export interface EventsOptions {
  ref: string;
  limit?: number;
  offset?: number;
  json: boolean;
  webapi?: string;
}

type Event = SessionEvents['events'][number];

/** `2025-08-24 19:41:51` (UTC, seconds: events come seconds apart). */
function formatSecond(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString().slice(0, 19).replace('T', ' ');
}

export const eventsCommand = defineCommand<EventsOptions>({
  name: 'events',
  summary: "List a session's events (hook calls, and tool results rebuilt from its transcript)",
  description:
    'One line per event, oldest first: time (UTC), event (SessionStart, UserPromptSubmit, PostToolUse, …), ' +
    'tool, result (ok or error) and what recorded it: hook (live) or transcript (rebuilt from its lines). ' +
    'Takes a session id or a unique prefix. --json prints the API answer (GET /api/sessions/{id}/events: ' +
    '{total, offset, limit, events}).',
  examples: [
    'transcripts events 1b2c0332',
    'transcripts events 1b2c0332 --offset 100 --limit 200',
    'transcripts events 1b2c0332 --json | jq ".events[] | select(.success == false)"',
  ],
  args: [{ name: '<id>', description: 'session id or unique prefix', apiParams: ['id', 'idPrefix'] }],
  options: [...pageOptions('events', 'default 100, max 1000'), jsonOption, webapiOption],
  parse(raw, args) {
    const ref = args[0]?.trim();
    if (!ref) throw new UsageError('events needs a session id');
    return {
      ref,
      ...parsePage(raw),
      json: raw.json === true,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    // An unknown or ambiguous id is a SessionRefError, reported by main as `error: …`, exit 1.
    const id = await resolveSessionId(client, options.ref);
    const page = await client.events(id, { limit: options.limit, offset: options.offset });
    if (options.json) {
      ctx.io.out(JSON.stringify(page, null, 2));
      return 0;
    }
    if (page.events.length === 0) {
      ctx.io.out(
        page.total === 0
          ? `no events for session ${id}`
          : `no events at offset ${page.offset} (of ${page.total})`,
      );
      return 0;
    }
    const lines = formatTable<Event>(
      [
        { header: 'TIME', value: (e) => formatSecond(e.timestamp) },
        { header: 'EVENT', value: (e) => e.event, flex: true, min: 12 },
        { header: 'TOOL', value: (e) => e.toolName ?? '', flex: true, min: 8 },
        { header: 'RESULT', value: (e) => (e.success === undefined ? '' : e.success ? 'ok' : 'error') },
        { header: 'RECORDED BY', value: (e) => (e.reconstructed ? 'transcript' : 'hook'), drop: 1 },
      ],
      page.events,
      outputWidth(ctx.io, ctx.env),
    );
    for (const l of lines) ctx.io.out(l);
    const first = page.offset + 1;
    const last = page.offset + page.events.length;
    if (page.total > page.events.length)
      ctx.io.err(
        `${first}–${last} of ${plural(page.total, 'event')}${last < page.total ? `; --offset ${last} for more` : ''}`,
      );
    return 0;
  },
});
