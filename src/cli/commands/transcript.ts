/**
 * `transcripts transcript <id>`: a session's transcript in the terminal, paged through the API and
 * written as it arrives (pipe it to `less` or `grep`). `--role` shows one side (the UI's You /
 * Claude toggle), `--raw` the original JSONL bytes, `--json` one projected entry per line.
 */
import type { TranscriptPage, Turns } from '../../client/api-client.js';
import { encodePathSegments } from '../../client/api-client.js';
import { objectKeyProblem } from '../../core/object-key.js';
import { isRealPrompt } from '../../core/transcript/turns.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { formatTime, guardClosedPipe, ReaderGoneError, writeOut } from './shared/format.js';
import { parseRole, roleOption, webapiOf, webapiOption } from './shared/options.js';
import { resolveSessionId } from './shared/session-ref.js';
import { truncate } from './shared/table.js';
import { terminalLine, terminalText } from './shared/terminal-text.js';

export interface TranscriptOptions {
  ref: string;
  role?: 'user' | 'assistant';
  raw: boolean;
  file?: string;
  json: boolean;
  markdown: boolean;
  webapi?: string;
}

type Entry = TranscriptPage['entries'][number];
type Turn = Turns['turns'][number];

const PAGE = 500;
/** How the CLI names the two sides (the UI's You / Claude toggle). */
export const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Claude' };

/**
 * Who an entry's head names: You only for a line that carries the person's own text (the user
 * turns' predicate, so this view and `--role user` agree), Claude for an assistant line, and the
 * line's role otherwise, with its kind when that differs. A user line that is not a prompt — a
 * command caveat, a local command or its output, an interruption marker, a meta line, a
 * subagent's prompt — reads `meta (user)`.
 */
export function entryLabel(e: Entry): string {
  const role = e.role === 'user' && !isRealPrompt(e) ? 'meta' : e.role;
  const kind = e.kind || e.role;
  const label = ROLE_LABEL[role] ?? role;
  return kind === role ? label : `${label} (${kind})`;
}

/**
 * One projected entry as readable text (pure). All of it is the transcript's text — the role, kind
 * and an unparsable time as much as the body — so it is made safe for the terminal here: escape
 * sequences removed, controls pictured, newlines and tabs kept (terminal-text.ts). A tool result
 * is neutralised before it is cut, so the cut counts what is shown and never splits a sequence.
 */
export function renderEntry(e: Entry): string {
  const head = terminalLine(`── #${e.index} · ${entryLabel(e)} · ${formatTime(e.timestamp)} ──`);
  const body: string[] = [];
  if (e.malformed) body.push(`[malformed line${e.error ? `: ${e.error}` : ''}]`);
  if (e.thinking) body.push(`[thinking] ${e.thinking}`);
  if (e.text) body.push(e.text);
  for (const t of e.toolUses ?? []) body.push(`→ ${t.name} ${truncate(JSON.stringify(t.input) ?? '', 300)}`);
  for (const r of e.toolResults ?? [])
    body.push(`← ${r.isError ? 'error' : 'result'}: ${truncate(terminalText(r.content), 500)}`);
  for (const i of e.images ?? []) body.push(`[image ${i.mediaType}, ${i.bytes} bytes]`);
  if (e.truncated) body.push('(shortened here; --raw shows the whole line)');
  return `${head}\n${body.length ? terminalText(body.join('\n')) : '(no text)'}\n\n`;
}

/** One turn as readable text (pure), made safe for the terminal as `renderEntry` is. */
export function renderTurn(t: Turn): string {
  const head = terminalLine(
    `── #${t.index} · ${ROLE_LABEL[t.role] ?? t.role} · ${formatTime(t.timestamp)} ──`,
  );
  return `${head}\n${terminalText(t.text)}\n\n`;
}

export const transcriptCommand = defineCommand<TranscriptOptions>({
  name: 'transcript',
  summary: "Print a session's transcript (or one side of it)",
  description:
    'Pages through the API and prints as it goes, so it can be piped. --role user|assistant prints one side ' +
    '(the You / Claude turns); --raw prints the original JSONL lines byte for byte; --json prints one JSON ' +
    'object per line (projected entries, or turns with --role). --file picks a subagent transcript ' +
    '(subagents/<name>.jsonl) instead of the main one. --markdown prints the conversation as Markdown, as ' +
    "the session page's Markdown link has it (GET /api/sessions/{id}/markdown: a header with the session's " +
    'details, then You / Claude turns with tool calls summarised); redirect it to a file to keep it.',
  examples: [
    'transcripts transcript 5c0375b4 | less',
    'transcripts transcript 5c0375b4 --role user',
    'transcripts transcript 5c0375b4 --raw > session.jsonl',
    'transcripts transcript 5c0375b4 --json | jq -r "select(.role==\\"assistant\\") | .text"',
    'transcripts transcript 5c0375b4 --markdown > session.md',
  ],
  args: [{ name: '<id>', description: 'session id or unique prefix', apiParams: ['id', 'idPrefix'] }],
  options: [
    roleOption,
    { flags: '--raw', description: 'the original JSONL lines, byte for byte' },
    {
      flags: '--file <name>',
      description: 'a file of the session other than transcript.jsonl (see `transcripts show`)',
      apiParams: ['file'],
    },
    { flags: '--json', description: 'one JSON object per line' },
    { flags: '--markdown', description: "the conversation as Markdown (the session page's Markdown link)" },
    webapiOption,
  ],
  parse(raw, args) {
    const ref = args[0]?.trim();
    if (!ref) throw new UsageError('transcript needs a session id');
    const role = parseRole(raw);
    const file = raw.file === undefined ? undefined : String(raw.file).trim();
    if (file !== undefined && objectKeyProblem(`x/${file}`))
      throw new UsageError(`--file: "${file}" is not a file name of a session`);
    if (raw.raw === true && raw.json === true) throw new UsageError('--raw and --json cannot be combined');
    if (role && file) throw new UsageError('--role covers every file of the session; drop --file');
    if (raw.markdown === true) {
      const other = [
        role && '--role',
        raw.raw === true && '--raw',
        file && '--file',
        raw.json === true && '--json',
      ];
      const clash = other.find(Boolean);
      if (clash) throw new UsageError(`--markdown and ${clash} cannot be combined`);
    }
    return {
      ref,
      role,
      raw: raw.raw === true,
      file,
      json: raw.json === true,
      markdown: raw.markdown === true,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    // An unknown or ambiguous id is a SessionRefError, reported by main as `error: …`, exit 1.
    const id = await resolveSessionId(client, options.ref);
    const out = (text: string) => writeOut(ctx.io, text);
    /** An answer the API streams (Markdown, a stored object), handed to stdout as it comes. */
    const passThrough = async (path: string, accept: string) => {
      const res = await client.fetchRaw('GET', path, { headers: { accept }, signal: ctx.signal });
      if (res.body)
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
          await writeBytes(ctx.io.stdout, chunk);
    };
    const unguard = guardClosedPipe(ctx.io);
    try {
      if (options.markdown) {
        // Streamed by the API a page of the transcript at a time: handed straight on.
        await passThrough(`/api/sessions/${encodeURIComponent(id)}/markdown`, 'text/markdown, */*');
        return 0;
      }
      if (options.raw && !options.role) {
        // The stored object is the transcript byte for byte: stream it straight through.
        await passThrough(
          `/api/store/objects/${encodePathSegments(`${id}/${options.file ?? 'transcript.jsonl'}`)}`,
          '*/*',
        );
        return 0;
      }
      if (options.role) {
        for (let offset = 0; ;) {
          const page = await client.turns(id, { role: options.role, offset, limit: PAGE });
          for (const t of page.turns) {
            if (options.raw) {
              const res = await client.fetchRaw(
                'GET',
                `/api/sessions/${encodeURIComponent(id)}/raw/${t.index}`,
                {
                  query: t.file === 'transcript.jsonl' ? {} : { file: t.file },
                  headers: { accept: '*/*' },
                },
              );
              await writeBytes(ctx.io.stdout, new Uint8Array(await res.arrayBuffer()));
              await out('\n');
            } else await out(options.json ? `${JSON.stringify(t)}\n` : renderTurn(t));
          }
          offset += page.turns.length;
          if (page.turns.length === 0 || offset >= page.total) break;
        }
        return 0;
      }
      for (let offset = 0; ;) {
        const page = await client.transcript(id, { file: options.file, offset, limit: PAGE });
        for (const e of page.entries) await out(options.json ? `${JSON.stringify(e)}\n` : renderEntry(e));
        offset += page.entries.length;
        if (page.entries.length === 0 || offset >= page.total) break;
      }
      return 0;
    } catch (err) {
      // The reader went away (`| head`): not an error.
      if (err instanceof ReaderGoneError || (err as NodeJS.ErrnoException).code === 'EPIPE') return 0;
      throw err;
    } finally {
      unguard();
    }
  },
});

function writeBytes(
  stream: NodeJS.WritableStream & { destroyed?: boolean },
  bytes: Uint8Array,
): Promise<void> {
  if (stream.destroyed) return Promise.reject(new ReaderGoneError('output closed'));
  return new Promise((resolve, reject) => {
    const ok = stream.write(bytes, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else stream.once('drain', resolve);
  });
}
