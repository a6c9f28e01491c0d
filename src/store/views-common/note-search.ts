/**
 * Notes in full-text search (issue 39): a session's note and each bookmark's note are indexed by
 * the `note_text` view beside the entries of `full_text`, and `Views.search` merges the two
 * rankings into one list of hits. Pure: the rows a note document gives, and the merge.
 */
import type { SearchHit, SearchResult } from '../contract.js';
import { annotationFields } from './annotation-fields.js';

/** The `file` and `index` of a session note's hit: it belongs to no entry. */
export const SESSION_NOTE_FILE = '';
export const SESSION_NOTE_INDEX = -1;

export interface NoteTextRow {
  kind: 'note' | 'bookmark';
  file: string;
  idx: number;
  /** When it was written (the annotation's timestamp, or the bookmark's). */
  at: string | null;
  text: string;
}

/** The search hit of a matching note row (`role` names the kind, as the reader labels it). */
export function noteHit(
  row: NoteTextRow & { session_id: string },
  snippet: SearchHit['snippet'],
  rank: number,
): SearchHit {
  return {
    kind: row.kind,
    sessionId: row.session_id,
    file: row.file,
    index: row.idx,
    role: row.kind,
    timestamp: row.at,
    snippet,
    rank,
  };
}

/** What of an annotation document full-text search indexes: its note, and its bookmarks' notes. */
export function noteTextRows(doc: Record<string, unknown>): NoteTextRow[] {
  const a = annotationFields(doc);
  const rows: NoteTextRow[] = [];
  if (a.note.trim() !== '')
    rows.push({
      kind: 'note',
      file: SESSION_NOTE_FILE,
      idx: SESSION_NOTE_INDEX,
      at: typeof doc.timestamp === 'string' ? doc.timestamp : null,
      text: a.note,
    });
  for (const b of a.bookmarks)
    if (b.note !== null && b.note.trim() !== '')
      rows.push({ kind: 'bookmark', file: b.file, idx: b.index, at: b.at || null, text: b.note });
  return rows;
}

/** Best first: higher rank, then session, file and index, as each engine orders its hits. */
function before(a: SearchHit, b: SearchHit): boolean {
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (a.sessionId !== b.sessionId) return a.sessionId < b.sessionId;
  if (a.file !== b.file) return a.file < b.file;
  return a.index < b.index;
}

/**
 * The page of entries to read so that, merged with every note hit, the requested page is whole:
 * with `notes` note hits, at most that many of them rank before the page's first entry, so the
 * entries start at most `notes` places earlier than the page, and the page holds at most `limit`
 * of them.
 */
export function entryWindow(offset: number, limit: number, notes: number): { offset: number; limit: number } {
  const back = Math.min(offset, notes);
  return { offset: offset - back, limit: limit + back };
}

/**
 * One page of the merged ranking. `entries` are the entries' hits from `entriesOffset` on (as
 * `entryWindow` asked), `notes` the best note hits (at least `offset + limit` of them, or all).
 * The notes ranked before `entries[0]` stand, with the entries before it, ahead of the page
 * (`entryWindow` made sure of that), so every hit from `entries[0]` on is at `entriesOffset` plus
 * its place in the merge.
 */
export function mergeNoteHits(
  entries: SearchHit[],
  entriesOffset: number,
  notes: SearchHit[],
  offset: number,
  limit: number,
): SearchHit[] {
  const merged: SearchHit[] = [];
  let i = 0;
  let j = 0;
  while (i < entries.length || j < notes.length) {
    if (j < notes.length && (i >= entries.length || before(notes[j]!, entries[i]!))) merged.push(notes[j++]!);
    else merged.push(entries[i++]!);
  }
  const start = offset - entriesOffset;
  return merged.slice(start, start + limit);
}

/** The note hits of a search: how many match, and the best `limit` of them. */
export interface NoteHits {
  total: number;
  hits: SearchHit[];
}

/**
 * A search over entries and notes as one ranking. `notes(limit)` answers null when the note index
 * is not there (a store not migrated to it yet): the entries are then searched alone.
 */
export async function searchWithNotes(
  page: { offset: number; limit: number },
  entries: (page: { offset: number; limit: number }) => Promise<SearchResult>,
  notes: (limit: number) => Promise<NoteHits | null>,
): Promise<SearchResult> {
  const found = await notes(page.offset + page.limit);
  if (found === null || found.total === 0) return entries(page);
  let window = entryWindow(page.offset, page.limit, found.total);
  let result = await entries(window);
  if (result.hits.length === 0 && window.offset > 0 && result.total > 0) {
    // Past the last entry: where the notes stand among the entries needs them all.
    window = { offset: 0, limit: page.offset + page.limit };
    result = await entries(window);
  }
  return {
    total: result.total + found.total,
    totalExact: result.totalExact,
    hits: mergeNoteHits(result.hits, window.offset, found.hits, page.offset, page.limit),
  };
}
