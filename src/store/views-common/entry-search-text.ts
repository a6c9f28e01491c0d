/**
 * What the full-text index holds for one projected entry: its text, thinking, tool inputs (as
 * compact canonical JSON) and tool-result content — all of what the reader shows of it, which the
 * projection already caps per field (caps.ts, 16K characters), so a word the reader shows is found.
 * The cap here only bounds an entry with very many tool uses or results. (At 8K characters, a
 * word past the middle of a compaction summary or a long tool result was not found; indexing all
 * of the shared corpus's projected text costs 13% more indexed characters.)
 */
import type { ProjectedEntry } from '../../core/documents.js';
import { canonicalJson } from '../../core/revision.js';
import { MARK_CLOSE, MARK_OPEN } from './search-terms.js';

/** Indexed characters per entry. */
export const SEARCH_TEXT_CAP = 64 * 1024;

const MARKERS = new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`, 'g');

export function entrySearchText(entry: ProjectedEntry, cap = SEARCH_TEXT_CAP): string {
  const parts: string[] = [];
  let length = 0;
  const add = (s: unknown) => {
    if (length >= cap || typeof s !== 'string' || s === '') return;
    parts.push(s.length > cap - length ? s.slice(0, cap - length) : s);
    length += s.length + 1;
  };
  add(entry.text);
  add(entry.thinking);
  for (const use of Array.isArray(entry.toolUses) ? entry.toolUses : []) {
    add(use?.name);
    // Canonical key order: a live write (the caller's object) and a rebuild (the stored body,
    // canonical) must index the very same text, or the two would rank differently.
    if (length < cap && use?.input !== undefined) add(canonicalJson(use.input));
  }
  for (const result of Array.isArray(entry.toolResults) ? entry.toolResults : []) add(result?.content);
  // Snippet markers must only ever come from snippet(), never from the text itself.
  return parts.join('\n').slice(0, cap).replace(MARKERS, ' ');
}
