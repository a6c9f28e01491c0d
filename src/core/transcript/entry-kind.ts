/**
 * What an entry is, as the conversation reader shows it: the one classification the reader
 * (web/src/lib/entry-groups.ts) groups by and the search hits (`GET /api/search`, `kind`) name,
 * so a hit and the entry it opens are called the same (a compaction summary is a "compaction
 * summary" in both, never "user").
 */
import type { ProjectedEntry } from '../documents.js';
import { injectedKind, promptText, withoutReminders } from './turns.js';

/** A projected entry as the API sends it (a tool use's `input` may be absent on the wire). */
export type EntryLike = Omit<ProjectedEntry, 'toolUses'> & {
  toolUses?: Array<{ id: string; name: string; input?: unknown }>;
};

/** Kinds of `other` lines that carry something to read. */
const NOTICE_KINDS = new Set(['summary', 'custom-title', 'ai-title', 'last-prompt', 'agent-name', 'pr-link']);

/** The badge of a line Claude Code marks meta (`isMeta`) that is none of the injected kinds. */
export const META_LABEL = 'added by Claude Code';

/** What the person typed in a user entry, as the You turns have it, or null when it is not theirs. */
export function youText(e: EntryLike): string | null {
  if (e.role !== 'user' || e.malformed) return null;
  const text = promptText(e);
  if (text !== null) return text;
  // A pasted image with nothing typed: the person's, though /turns (text only) has no turn for it.
  const pastedOnly = !e.text?.trim() && !!e.images?.length;
  return pastedOnly && !e.isSidechain && !e.isMeta && !e.isCompactSummary ? '' : null;
}

export type EntryClass = 'message' | 'tools' | 'results' | 'notice' | 'meta';

/** How the conversation reader classifies one (non-sidechain) entry. */
export function classifyEntry(e: EntryLike): EntryClass {
  if (e.malformed) return 'notice';
  switch (e.role) {
    case 'user':
      if (e.isCompactSummary) return 'notice';
      if (youText(e) !== null) return 'message';
      // Text Claude Code wrote on the person's side (its meta lines too: a command caveat, a slash
      // command's prompt): visible, labelled, but not as them speaking.
      return e.text?.trim() || (e.images && e.images.length > 0) ? 'notice' : 'meta';
    case 'assistant':
      if (e.text || e.thinking) return 'message';
      return e.toolUses && e.toolUses.length > 0 ? 'tools' : 'meta';
    case 'tool_result':
      return 'results';
    case 'system':
      return e.text || e.error ? 'notice' : 'meta';
    default:
      return (e.text && NOTICE_KINDS.has(e.kind)) || e.error ? 'notice' : 'meta';
  }
}

/** The badge of a notice: what the line is. */
export function noticeLabel(e: EntryLike): string {
  if (e.malformed) return 'malformed line';
  if (e.isCompactSummary) return 'compaction summary';
  if (e.role !== 'user') return e.kind;
  const text = withoutReminders(e.text ?? '');
  if (!text) return e.text?.trim() ? 'system reminder' : 'image';
  return injectedKind(text) ?? (e.isSidechain ? 'subagent prompt' : e.isMeta ? META_LABEL : 'not a prompt');
}

/**
 * `/name` when `e` is a slash command that prompts Claude (`<command-message>` first): the meta
 * line after it is the prompt the command sent.
 */
export function promptingCommand(e: EntryLike): string | null {
  if (e.role !== 'user' || e.isSidechain || e.isMeta) return null;
  const text = withoutReminders(e.text ?? '');
  if (!text.startsWith('<command-message>')) return null;
  return youText(e)?.split(/\s/)[0] || null;
}

/** A notice's label given the main-file entry before it (a slash command's prompt names it). */
export function noticeLabelAfter(e: EntryLike, previous: EntryLike | undefined): string {
  const label = noticeLabel(e);
  const command = previous ? promptingCommand(previous) : null;
  return command && e.isMeta && label === META_LABEL ? `prompt of ${command}` : label;
}

/**
 * The entry's kind in words, as the reader heads or badges it: `You` and `Claude` for what they
 * said, `tool call` and `tool result`, a notice's label (`compaction summary`, `system reminder`,
 * `prompt of /init`, …), and a bookkeeping line's own kind (`progress`). `previous` is the entry
 * before it in the same file, when known.
 */
export function entryKind(e: EntryLike, previous?: EntryLike): string {
  switch (classifyEntry(e)) {
    case 'message':
      return e.role === 'user' ? 'You' : 'Claude';
    case 'tools':
      return 'tool call';
    case 'results':
      return 'tool result';
    case 'notice':
      return noticeLabelAfter(e, previous);
    case 'meta':
      return e.kind;
  }
}
