/**
 * What the full-text index holds for one projected entry: its text, thinking, tool inputs (as
 * their keys and values, see `toolInputText`) and tool-result content — all of what the reader
 * shows of it, which the projection already caps per field (caps.ts, 16K characters), so a word the
 * reader shows is found. Terminal escape sequences (a command's colours, links, titles) are left
 * out: the reader shows their effect, not them, and indexed they glued to the word they coloured
 * (`\x1b[31mERROR` was the word `31merror`, so `error` missed it).
 * The cap here only bounds an entry with very many tool uses or results. (At 8K characters, a
 * word past the middle of a compaction summary or a long tool result was not found; indexing all
 * of the shared corpus's projected text costs 13% more indexed characters.)
 */
import stripAnsi from 'strip-ansi';
import type { ProjectedEntry } from '../../core/documents.js';
import { MARK_CLOSE, MARK_OPEN } from './search-terms.js';

/** What an index made by an earlier version holds that the current one does not (search-stale.ts). */
export const OLDER_FORM = 'tool inputs as JSON, or terminal escape codes glued to words';

/** Indexed characters per entry. */
export const SEARCH_TEXT_CAP = 64 * 1024;

const MARKERS = new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`, 'g');

/**
 * A tool input as text: one `key: value` line per field, nested fields under their key, strings
 * as they are. As JSON, a line break or tab inside a string was the two characters `\n`, so the
 * word after it was indexed glued to the `n` (`\nzebra` → `nzebra`): the second line of a command
 * or an edit was not found. Keys go in sorted order: a live write (the caller's object) and a
 * rebuild (the stored body, canonical) must index the very same text, or the two would rank
 * differently.
 */
export function toolInputText(input: unknown): string {
  const lines: string[] = [];
  const walk = (value: unknown, label: string) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      // Items stand under the array's own key.
      for (const item of value) walk(item, label);
      return;
    }
    if (typeof value === 'object') {
      if (label) lines.push(`${label}:`);
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record).sort()) walk(record[key], key);
      return;
    }
    const text = typeof value === 'string' ? value : String(value);
    lines.push(label ? `${label}: ${text}` : text);
  };
  walk(input, '');
  return lines.join('\n');
}

export function entrySearchText(entry: ProjectedEntry, cap = SEARCH_TEXT_CAP): string {
  const parts: string[] = [];
  let length = 0;
  const add = (raw: unknown) => {
    if (length >= cap || typeof raw !== 'string' || raw === '') return;
    const s = stripAnsi(raw);
    parts.push(s.length > cap - length ? s.slice(0, cap - length) : s);
    length += s.length + 1;
  };
  add(entry.text);
  add(entry.thinking);
  for (const use of Array.isArray(entry.toolUses) ? entry.toolUses : []) {
    add(use?.name);
    if (length < cap && use?.input !== undefined) add(toolInputText(use.input));
  }
  for (const result of Array.isArray(entry.toolResults) ? entry.toolResults : []) add(result?.content);
  // Snippet markers must only ever come from snippet(), never from the text itself.
  return parts.join('\n').slice(0, cap).replace(MARKERS, ' ');
}
