/**
 * A session rendered as Markdown (DESIGN §12: per-session export): a header with the session's
 * facts, then the conversation — the person's prompts, Claude's replies, tool calls named with a
 * short input preview, each under its speaker's heading. Subagent (sidechain) lines, tool results
 * and user lines that are not the person's own text are left out for readability; the JSON routes
 * keep everything.
 */
import { type ProjectedEntry } from '../core/documents.js';
import { MAIN_TRANSCRIPT } from '../core/doc-ids.js';
import { promptText } from '../core/transcript/turns.js';
import { formatDuration } from '../core/display-format.js';
import type { Store } from '../store/contract.js';
import type { Session } from './schemas/sessions.js';

const PAGE = 1000;
const PREVIEW = 200;

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

/**
 * Renders transcript entries, in file order, into Markdown lines (none for sidechain lines and
 * tool results). Every entry shown comes under the heading of its speaker: a prompt (a user line
 * the You turns count, turns.ts) gets a You heading over its text as the turn has it (reminders
 * removed, a slash command as `/name args`), an assistant line with text a Claude heading,
 * and the tool calls of an assistant line without text get one too unless Claude's heading is the
 * last one written, so they never read as the person's. The renderer remembers that heading from
 * one call to the next: a transcript is rendered a page at a time.
 */
export function entryRenderer(): (e: ProjectedEntry) => string[] {
  let heading: 'you' | 'claude' | null = null;
  return function renderEntry(e) {
    if (e.isSidechain) return [];
    const when = e.timestamp ? ` · ${e.timestamp}` : '';
    const out: string[] = [];
    const prompt = promptText(e);
    if (prompt !== null) {
      out.push(`### You${when}`, '', prompt, '');
      heading = 'you';
    } else if (e.role === 'assistant') {
      const text = e.text?.trim();
      const calls = e.toolUses ?? [];
      if (text || (calls.length > 0 && heading !== 'claude')) {
        out.push(`### Claude${when}`, '');
        heading = 'claude';
      }
      if (text) out.push(text, '');
      for (const t of calls) out.push(`> **${t.name}** \`${preview(t.input).replace(/`/g, "'")}\``, '');
    }
    return out;
  };
}

/** The lines above the conversation: the session's facts. */
export function markdownHeader(session: Session): string[] {
  return [
    `# ${session.title ?? session.id}`,
    '',
    `- **Session:** \`${session.id}\``,
    `- **Project:** ${session.project ?? '—'} (${session.cwd ?? 'unknown cwd'})`,
    `- **Model:** ${session.models.join(', ') || '—'}`,
    `- **Host:** ${session.hostname ?? '—'} · **Source:** ${session.source} · **Provenance:** ${session.provenance}`,
    `- **Started:** ${session.startedAt ?? '—'} · **Last activity:** ${session.lastActivity ?? '—'} · **Status:** ${session.status}`,
    `- **Runtime:** ${formatDuration(session.runtimeMs)} · **Active:** ${formatDuration(session.activeTimeMs)}`,
    `- **Tokens:** ${session.tokens.input} in, ${session.tokens.output} out, ${session.tokens.cacheRead} cache read, ${session.tokens.cacheWrite} cache write`,
    '',
    '---',
    '',
  ];
}

/**
 * The Markdown of a session, a page of the transcript at a time: a session of hundreds of MB is
 * never held whole. Joined, the pieces are the document's lines separated by newlines, with
 * trailing whitespace trimmed to a single final newline.
 */
export async function* markdownPieces(store: Store, session: Session): AsyncGenerator<string> {
  const header = markdownHeader(session);
  // Whitespace at the end of what has been produced so far is held back: it is written only if
  // more text follows, so the document ends trimmed, as a whole-string trimEnd would leave it.
  let held = '';
  const emit = (lines: string[], first: boolean): string | null => {
    const text = held + (first ? '' : '\n') + lines.join('\n');
    const body = text.trimEnd();
    held = text.slice(body.length);
    return body.length > 0 ? body : null;
  };
  const render = entryRenderer();
  let piece = emit(header, true);
  if (piece) yield piece;
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.views.transcriptPage(session.id, MAIN_TRANSCRIPT, { offset, limit: PAGE });
    const lines = page.entries.flatMap((e) => render(e));
    if (lines.length > 0) {
      piece = emit(lines, false);
      if (piece) yield piece;
    }
    if (page.entries.length < PAGE || offset + PAGE >= page.total) break;
  }
  yield '\n';
}
