/** `transcripts show <id|prefix>`: one session's details, as the UI's session page heads them. */
import type { Session } from '../../client/api-client.js';
import { resumeCommand } from '../../core/resume-command.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import {
  formatBytes,
  formatCost,
  formatDuration,
  modelShares,
  formatTime,
  guardClosedPipe,
  outputWidth,
  plural,
  statusLabel,
} from './shared/format.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';
import { resolveSessionId } from './shared/session-ref.js';
import { oneLine, truncate } from './shared/table.js';
import { labelledLines } from './shared/wrap.js';

export interface ShowOptions {
  ref: string;
  json: boolean;
  webapi?: string;
}

/** Every tool the session used with its call count, most used first (ties by name): `Bash 100`. */
export function toolCounts(byName: Record<string, number>): string[] {
  return Object.entries(byName)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => `${name} ${count.toLocaleString('en-US')}`);
}

/**
 * Label/value lines for a session (pure, for the terminal). A value that is a list (the tools)
 * wraps at its items on a terminal instead of being cut.
 */
export function sessionLines(s: Session): Array<[string, string | string[]]> {
  const n = (x: number) => x.toLocaleString('en-US');
  const tools = toolCounts(s.toolCallsByName);
  const models = modelShares(s.cost.byModel);
  return [
    ['id', s.id],
    ['title', s.title ?? '—'],
    ['status', `${statusLabel(s.status)}${s.endReason ? ` (${s.endReason})` : ''}`],
    ['provenance', `${s.provenance} (source ${s.source}${s.hookRecorded ? ', hook-recorded' : ''})`],
    ['project', s.project ?? '—'],
    ['cwd', s.cwd ?? '—'],
    ['resume', resumeCommand(s)],
    ['host', s.hostname ?? '—'],
    ['git branch', s.gitBranch ?? '—'],
    ['model', s.models.length ? s.models.join(', ') : '—'],
    ['version', s.version ?? '—'], // of Claude Code, or of the Codex CLI for a rollout
    ['started', formatTime(s.startedAt)],
    ['last activity', formatTime(s.lastActivity)],
    ['ended', formatTime(s.endedAt)],
    ['runtime', formatDuration(s.runtimeMs)],
    ['active time', formatDuration(s.activeTimeMs)],
    [
      'entries',
      `${n(s.counts.entries)} (${plural(s.counts.prompts, 'prompt')}, ${plural(s.counts.assistantMessages, 'assistant message')}, ` +
        `${n(s.counts.malformed)} malformed, ${plural(s.counts.compactions, 'compaction')})`,
    ],
    [
      'tool calls',
      `${n(s.counts.toolCalls)} (${n(s.counts.toolErrors)} errors)` +
        (tools.length ? `, ${plural(tools.length, 'tool')}:` : ''),
    ],
    ...(tools.length ? [['  tools', tools] as [string, string[]]] : []),
    ['events', n(s.counts.events)],
    [
      'tokens',
      `${n(s.tokens.input)} in, ${n(s.tokens.output)} out, ${n(s.tokens.cacheWrite)} cache write, ${n(s.tokens.cacheRead)} cache read`,
    ],
    ['cost', formatCost(s.cost)],
    ...(models.length > 1 ? [['  by model', models] as [string, string[]]] : []),
    [
      'transcript',
      `${formatBytes(s.transcriptBytes)} in ${s.files.length} file${s.files.length === 1 ? '' : 's'}`,
    ],
    ...s.files.map((f): [string, string] => [
      '  file',
      `${f.name}: ${n(f.entries)} entries, ${formatBytes(f.bytes)}`,
    ]),
  ];
}

export const showCommand = defineCommand<ShowOptions>({
  name: 'show',
  summary: "Show one session's details",
  description:
    'Takes a session id or a unique prefix of one. --json prints the API answer (GET /api/sessions/{id}).',
  examples: ['transcripts show 5c0375b4', 'transcripts show 5c0375b4 --json'],
  args: [{ name: '<id>', description: 'session id or unique prefix', apiParams: ['id', 'idPrefix'] }],
  options: [jsonOption, webapiOption],
  parse(raw, args) {
    const ref = args[0]?.trim();
    if (!ref) throw new UsageError('show needs a session id');
    return { ref, json: raw.json === true, webapi: webapiOf(raw) };
  },
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    // An unknown or ambiguous id is a SessionRefError, reported by main as `error: …`, exit 1.
    const id = await resolveSessionId(client, options.ref);
    const s = await client.session(id);
    if (options.json) {
      ctx.io.out(JSON.stringify(s, null, 2));
      return 0;
    }
    const width = outputWidth(ctx.io, ctx.env);
    // Every value goes through oneLine: titles, directories, models and tool names are the
    // transcript's text, with its escape sequences removed and its controls pictured.
    for (const [k, v] of sessionLines(s)) {
      if (Array.isArray(v)) {
        for (const line of labelledLines(k, 14, v.map(oneLine), ', ', width)) ctx.io.out(line);
        continue;
      }
      const line = `${k.padEnd(13)} ${oneLine(v)}`;
      ctx.io.out(width ? truncate(line, width) : line);
    }
    return 0;
  },
});
