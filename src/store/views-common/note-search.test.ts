import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../contract.js';
import { entryWindow, mergeNoteHits, noteTextRows, searchWithNotes } from './note-search.js';

function hit(kind: SearchHit['kind'], sessionId: string, index: number, rank: number): SearchHit {
  return {
    kind,
    sessionId,
    file: kind === 'note' ? '' : 't',
    index,
    role: kind,
    timestamp: null,
    snippet: [],
    rank,
  };
}

describe('noteTextRows', () => {
  it("indexes a session's note and the bookmarks that carry one", () => {
    expect(
      noteTextRows({
        timestamp: '2025-01-01T00:00:00.000Z',
        note: 'hello',
        bookmarks: [
          { file: 't', index: 2, note: 'there', at: '2025-01-02T00:00:00.000Z' },
          { file: 't', index: 3, at: '2025-01-02T00:00:00.000Z' },
          { file: 't', index: 4, note: '  ', at: '2025-01-02T00:00:00.000Z' },
        ],
      }),
    ).toEqual([
      { kind: 'note', file: '', idx: -1, at: '2025-01-01T00:00:00.000Z', text: 'hello' },
      { kind: 'bookmark', file: 't', idx: 2, at: '2025-01-02T00:00:00.000Z', text: 'there' },
    ]);
    expect(noteTextRows({ note: '', bookmarks: [] })).toEqual([]);
  });
});

describe('merging note hits into the entries', () => {
  // Entries ranked 10, 9, …, 1; notes at 9.5, 5.5 and 0.5.
  const entries = Array.from({ length: 10 }, (_, i) => hit('entry', 's', i, 10 - i));
  const notes = [hit('note', 'n1', -1, 9.5), hit('note', 'n2', -1, 5.5), hit('note', 'n3', -1, 0.5)];
  const whole = [...entries, ...notes].sort((a, b) => b.rank - a.rank);
  const entryPage = async (p: { offset: number; limit: number }) => ({
    total: entries.length,
    totalExact: true,
    hits: entries.slice(p.offset, p.offset + p.limit),
  });

  it('reads the entries from as many places back as there are notes', () => {
    expect(entryWindow(0, 5, 3)).toEqual({ offset: 0, limit: 5 });
    expect(entryWindow(2, 5, 3)).toEqual({ offset: 0, limit: 7 });
    expect(entryWindow(8, 5, 3)).toEqual({ offset: 5, limit: 8 });
  });

  it('gives every page of the one ranking, past the last entry too', async () => {
    for (let offset = 0; offset <= 14; offset++)
      for (const limit of [1, 2, 5]) {
        const r = await searchWithNotes({ offset, limit }, entryPage, async (n) => ({
          total: notes.length,
          hits: notes.slice(0, n),
        }));
        expect(r.total).toBe(13);
        expect(r.hits).toEqual(whole.slice(offset, offset + limit));
      }
  });

  it('orders equal ranks by session, file and index', () => {
    const e = [hit('entry', 'b', 0, 1)];
    const n = [hit('note', 'a', -1, 1), hit('note', 'c', -1, 1)];
    expect(mergeNoteHits(e, 0, n, 0, 3).map((h) => h.sessionId)).toEqual(['a', 'b', 'c']);
  });

  it('searches the entries alone without the note index', async () => {
    const r = await searchWithNotes({ offset: 0, limit: 3 }, entryPage, async () => null);
    expect(r.hits).toEqual(entries.slice(0, 3));
  });
});
