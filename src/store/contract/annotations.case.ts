/**
 * The contract for user data (DESIGN §13), run against every engine: annotation documents and the
 * `session_annotations` view behind the list's star/tag/note filters, the tag facet, the bookmarks
 * and note search; and tombstones: a forgotten session leaves nothing behind and no write brings
 * it back.
 */
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { emptyAnnotation, applyEdit, type AnnotationDoc } from '../../core/annotations.js';
import { annotationId, tombstoneId } from '../../core/annotation-rules.js';
import { forgetSession, listForgotten, unforgetSession, SessionForgottenError } from '../forget.js';
import { ViewMissingError, type SearchHit, type Store } from '../contract.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';
import { materializeAll } from './views-sessions.case.js';
import { chunkDoc, entry, eventDoc, putDocs, summaryDoc } from './view-fixtures.js';

const AT = '2025-04-01T00:00:00.000Z';
const page = { limit: 50, offset: 0 };

function annotation(sessionId: string, fields: Partial<AnnotationDoc>): AnnotationDoc {
  return { ...emptyAnnotation(sessionId, AT), ...fields };
}

async function seed(store: Store): Promise<void> {
  await putDocs(store, [
    summaryDoc('a', { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z'] }),
    summaryDoc('b', { span: ['2025-03-02T10:00:00.000Z', '2025-03-02T11:00:00.000Z'], cwd: '/work/other' }),
    summaryDoc('c', { span: ['2025-03-03T10:00:00.000Z', '2025-03-03T11:00:00.000Z'] }),
    chunkDoc('a', [entry(0, 'user', 'the pool is draining')]),
    annotation('a', { starred: true, tags: ['bug', 'area/api'], note: 'Look at the **Retry** loop' }),
    annotation('b', {
      tags: ['bug'],
      bookmarks: [{ file: 'transcript.jsonl', index: 3, note: 'here', at: '2025-04-02T00:00:00.000Z' }],
    }),
  ]);
}

/** Everything the store holds that names `needle`, outside the documents in `except`. */
export async function traces(store: Store, needle: string, except: string[] = []): Promise<string[]> {
  const found: string[] = [];
  const all = await store.docs.allDocs({ includeDocs: true });
  for (const r of all.rows)
    if (!except.includes(r.id) && JSON.stringify(r.doc).includes(needle)) found.push(`doc ${r.id}`);
  const changes = await store.docs.changes(0);
  for (const c of changes.results)
    if (!except.includes(c.id) && c.id.includes(needle)) found.push(`change ${c.id}`);
  for (const o of await store.objects.listPage({ limit: 10_000 }))
    if (o.key.includes(needle)) found.push(`object ${o.key}`);
  for (const id of await store.docs.localIds('_local/'))
    if (JSON.stringify([id, await store.docs.getLocal(id)]).includes(needle)) found.push(`local ${id}`);
  const v = store.views;
  const list = await v.listSessions({}, { limit: 1000, offset: 0 });
  if (JSON.stringify(list).includes(needle)) found.push('session list');
  if ((await v.search({ q: `"${needle}"`, ...page })).total > 0) found.push('search');
  if (JSON.stringify(await v.bookmarks(page)).includes(needle)) found.push('bookmarks');
  // The fixtures' year; a query may read at most MAX_RANGE_DAYS days (split-by-day.ts).
  if (JSON.stringify(await v.dailyActivity('2025-01-01', '2025-12-31', {})).includes(needle))
    found.push('calendar');
  if (JSON.stringify(await v.allTurns({ limit: 1000, offset: 0 })).includes(needle)) found.push('turns');
  return found;
}

export function describeAnnotationsContract(options: ContractOptions): void {
  describeWithStore(options, 'annotations', (store) => {
    it('filters the list on stars and tags (every tag must match) and notes', async () => {
      await materializeAll(store());
      await seed(store());
      const ids = async (filter: object) =>
        (await store().views.listSessions(filter, page)).rows.map((r) => r.summary.sessionId).sort();
      expect(await ids({ starred: true })).toEqual(['a']);
      expect(await ids({ tags: ['bug'] })).toEqual(['a', 'b']);
      expect(await ids({ tags: ['bug', 'area/api'] })).toEqual(['a']);
      expect(await ids({ tags: ['bug', 'nope'] })).toEqual([]);
      expect(await ids({ hasNote: true })).toEqual(['a']);
      expect(await ids({ tags: ['bug'], cwd: '/work/other' })).toEqual(['b']);
      expect((await store().views.facets('cwd', { tags: ['bug'] })).map((f) => f.value).sort()).toEqual([
        '/work/other',
        '/work/project',
      ]);
      await expect(store().views.listSessions({ tags: ['Bad Tag'] }, page)).rejects.toThrow(
        /not a valid tag/,
      );
    });

    it('answers annotations by id, the tag facet and bookmarks', async () => {
      await materializeAll(store());
      await seed(store());
      const rows = await store().views.annotations(['a', 'b', 'c']);
      expect([...rows.keys()].sort()).toEqual(['a', 'b']);
      expect(rows.get('a')).toEqual({
        sessionId: 'a',
        starred: true,
        tags: ['bug', 'area/api'],
        note: 'Look at the **Retry** loop',
        bookmarks: 0,
      });
      expect(await store().views.tagFacet()).toEqual([
        { value: 'bug', sessions: 2 },
        { value: 'area/api', sessions: 1 },
      ]);
      expect(await store().views.tagFacet({ cwd: '/work/other' })).toEqual([{ value: 'bug', sessions: 1 }]);
      expect(await store().views.bookmarks(page)).toEqual({
        total: 1,
        bookmarks: [
          {
            sessionId: 'b',
            file: 'transcript.jsonl',
            index: 3,
            note: 'here',
            at: '2025-04-02T00:00:00.000Z',
          },
        ],
      });
    });

    it('keeps annotations with revisions: a stale revision is a conflict, never lost', async () => {
      await materializeAll(store());
      await seed(store());
      const current = (await store().docs.get(annotationId('a')))!;
      const first = applyEdit(current as unknown as AnnotationDoc, { kind: 'tags', add: ['x'] }, AT);
      const second = applyEdit(current as unknown as AnnotationDoc, { kind: 'note', note: 'other' }, AT);
      const [w1] = await store().docs.bulkUpsert([first]);
      const [w2] = await store().docs.bulkUpsert([second]);
      expect(w1!.status).toBe('written');
      expect(w2!.status).toBe('conflict');
      expect((await store().views.annotations(['a'])).get('a')!.tags).toEqual(['area/api', 'bug', 'x']);
    });

    it('keeps the documents when the view is dropped, and rebuilds the same answers', async () => {
      await materializeAll(store());
      await seed(store());
      const before = [
        await store().views.tagFacet(),
        await store().views.bookmarks(page),
        await store().views.listSessions({ starred: true }, page),
      ];
      await store().views.drop('session_annotations');
      await expect(store().views.listSessions({ starred: true }, page)).rejects.toBeInstanceOf(
        ViewMissingError,
      );
      await expect(store().views.tagFacet()).rejects.toBeInstanceOf(ViewMissingError);
      expect(await store().docs.get(annotationId('a'))).not.toBeNull();
      // Written while the view is down.
      await putDocs(store(), [annotation('c', { tags: ['later'] })]);
      await store().views.materialize('session_annotations');
      expect(await store().views.tagFacet()).toEqual([
        { value: 'bug', sessions: 2 },
        { value: 'area/api', sessions: 1 },
        { value: 'later', sessions: 1 },
      ]);
      expect([before[1], before[2]]).toEqual([
        await store().views.bookmarks(page),
        await store().views.listSessions({ starred: true }, page),
      ]);
    });
  });

  describeWithStore(options, 'notes in full-text search', (store) => {
    const hitKeys = (r: { hits: SearchHit[] }) => r.hits.map((h) => [h.kind, h.sessionId, h.file, h.index]);

    it("finds a session's note and a bookmark's note with the entries, ranked with them", async () => {
      await materializeAll(store());
      await seed(store());
      await putDocs(store(), [
        chunkDoc('c', [entry(0, 'user', 'a retry here'), entry(1, 'assistant', 'retry retry retry loop')]),
        annotation('c', {
          bookmarks: [{ file: 'transcript.jsonl', index: 1, note: 'the Retry storm', at: AT }],
        }),
      ]);
      const all = await store().views.search({ q: 'retry', limit: 10, offset: 0 });
      expect(all.total).toBe(4);
      expect(all.hits.map((h) => h.kind).sort()).toEqual(['bookmark', 'entry', 'entry', 'note']);
      const note = all.hits.find((h) => h.kind === 'note')!;
      expect(note).toMatchObject({ sessionId: 'a', file: '', index: -1, role: 'note', timestamp: AT });
      expect(note.snippet.filter((s) => s.mark).map((s) => s.text)).toEqual(['Retry']);
      const mark = all.hits.find((h) => h.kind === 'bookmark')!;
      expect(mark).toMatchObject({ sessionId: 'c', file: 'transcript.jsonl', index: 1, role: 'bookmark' });
      // One ranking, best first, whatever the hit's kind.
      const ranks = all.hits.map((h) => h.rank);
      expect(ranks).toEqual([...ranks].sort((x, y) => y - x));
      // Pages of the merged ranking add up to the whole, in the same order.
      const pages = [];
      for (let offset = 0; offset < 4; offset++)
        pages.push(...(await store().views.search({ q: 'retry', limit: 1, offset })).hits);
      expect(hitKeys({ hits: pages })).toEqual(hitKeys(all));
      const tail = await store().views.search({ q: 'retry', limit: 10, offset: 3 });
      expect(hitKeys(tail)).toEqual(hitKeys(all).slice(3));
      // A phrase only the note holds; the session filters apply to notes too.
      expect(hitKeys(await store().views.search({ q: '"retry loop"', ...page }))).toEqual(
        expect.arrayContaining([['note', 'a', '', -1]]),
      );
      expect(hitKeys(await store().views.search({ q: 'storm', ...page }))).toEqual([
        ['bookmark', 'c', 'transcript.jsonl', 1],
      ]);
      expect((await store().views.search({ q: 'storm', cwd: '/work/other', ...page })).total).toBe(0);
      expect((await store().views.search({ q: 'storm', starred: true, ...page })).total).toBe(0);
    });

    it('follows edits and forgetting, and a note index rebuilt from the documents', async () => {
      await materializeAll(store());
      await seed(store());
      const find = async (q: string) => hitKeys(await store().views.search({ q, ...page }));
      expect(await find('retry')).toEqual([['note', 'a', '', -1]]);
      const current = (await store().docs.get(annotationId('a'))) as unknown as AnnotationDoc;
      const [w] = await store().docs.bulkUpsert([
        applyEdit(current, { kind: 'note', note: 'now about the pelican' }, AT),
      ]);
      expect(w!.status).toBe('written');
      expect(await find('retry')).toEqual([]);
      expect(await find('pelican')).toEqual([['note', 'a', '', -1]]);
      await store().views.drop('note_text');
      // Search still answers without the note index (a store before migration 18).
      expect(await find('pelican')).toEqual([]);
      expect(await find('draining')).toEqual([['entry', 'a', 'transcript.jsonl', 0]]);
      await store().views.materialize('note_text');
      expect(await find('pelican')).toEqual([['note', 'a', '', -1]]);
      await forgetSession(store(), 'a', AT);
      expect(await find('pelican')).toEqual([]);
    });
  });

  describeWithStore(options, 'tombstones', (store) => {
    const phrase = 'zanzibar-quokka-phrase';
    const seedDoomed = async () => {
      await materializeAll(store());
      await seed(store());
      await putDocs(store(), [
        summaryDoc('doomed', {
          span: ['2025-03-05T10:00:00.000Z', '2025-03-05T11:00:00.000Z'],
          title: phrase,
        }),
        chunkDoc('doomed', [entry(0, 'user', `tell me about ${phrase}`), entry(1, 'assistant', 'sure')]),
        eventDoc('doomed', '2025-03-05T10:00:00.000Z', 'SessionStart'),
        annotation('doomed', {
          starred: true,
          tags: ['gone'],
          note: `note on ${phrase}`,
          bookmarks: [{ file: 'transcript.jsonl', index: 1, at: AT }],
        }),
      ]);
      await store().objects.put(
        'doomed/transcript.jsonl',
        Readable.from([Buffer.from(`{"x":"${phrase}"}\n`)]),
      );
      await store().docs.putLocal('_local/ingest:doomed', { v: 1, files: {} });
      await store().docs.putLocal('_local/ingest-tree:test', {
        v: 1,
        files: {
          '/p/doomed.jsonl': { size: 1, mtimeMs: 1, sessionId: 'doomed' },
          '/p/a.jsonl': { size: 1, mtimeMs: 1, sessionId: 'a' },
        },
      });
      expect((await traces(store(), 'doomed')).length).toBeGreaterThan(5);
      expect((await traces(store(), phrase)).length).toBeGreaterThan(3);
    };

    it('forgets a session: nothing of it remains but its tombstone', async () => {
      await seedDoomed();
      const r = await forgetSession(store(), 'doomed', AT);
      expect(r).toEqual({ sessionId: 'doomed', tombstoned: true, documents: 4, objects: 1 });
      expect(await traces(store(), 'doomed', [tombstoneId('doomed')])).toEqual([]);
      expect(await traces(store(), phrase)).toEqual([]);
      expect(await store().docs.get(tombstoneId('doomed'))).toMatchObject({
        type: 'tombstone',
        sessionId: 'doomed',
      });
      // The others are untouched.
      expect((await store().views.listSessions({}, page)).total).toBe(3);
      expect(await store().docs.getLocal('_local/ingest-tree:test')).toEqual({
        v: 1,
        files: { '/p/a.jsonl': { size: 1, mtimeMs: 1, sessionId: 'a' } },
      });
      expect(await listForgotten(store())).toEqual([
        expect.objectContaining({ _id: tombstoneId('doomed'), sessionId: 'doomed', timestamp: AT }),
      ]);
    });

    it('refuses every write for a forgotten session until it is unforgotten', async () => {
      await seedDoomed();
      await forgetSession(store(), 'doomed', AT);
      const again = [
        summaryDoc('doomed', { title: phrase }),
        chunkDoc('doomed', [entry(0, 'user', phrase)]),
        annotation('doomed', { starred: true }),
        summaryDoc('fresh'),
      ];
      const results = await store().docs.commit(again, [{ id: '_local/ingest:doomed', value: { v: 1 } }]);
      expect(results.map((r) => r.status)).toEqual(['conflict', 'conflict', 'conflict', 'written']);
      expect(results[0]!.reason).toMatch(/forgotten/);
      await expect(
        store().objects.put('doomed/transcript.jsonl', Readable.from([Buffer.from('x\n')])),
      ).rejects.toBeInstanceOf(SessionForgottenError);
      expect(await traces(store(), phrase)).toEqual([]);
      expect(await traces(store(), 'doomed', [tombstoneId('doomed')])).toEqual([]);

      expect(await unforgetSession(store(), 'doomed')).toBe(true);
      expect(await unforgetSession(store(), 'doomed')).toBe(false);
      expect(await traces(store(), 'doomed')).toEqual([]);
      await putDocs(store(), [summaryDoc('doomed')]);
      await store().objects.put('doomed/transcript.jsonl', Readable.from([Buffer.from('x\n')]));
      expect(await store().views.getSession('doomed')).not.toBeNull();
    });

    it('a tombstone written like any document (an imported bundle) forgets its session', async () => {
      await seedDoomed();
      const [r] = await store().docs.bulkUpsert([
        { _id: tombstoneId('doomed'), type: 'tombstone', sessionId: 'doomed', timestamp: AT },
      ]);
      expect(r!.status).toBe('written');
      expect(await traces(store(), 'doomed', [tombstoneId('doomed')])).toEqual([]);
      expect(await traces(store(), phrase)).toEqual([]);
    });

    it('stays gone through the views being dropped and rebuilt', async () => {
      await seedDoomed();
      await forgetSession(store(), 'doomed', AT);
      for (const name of [...(await store().views.materialized())].reverse()) await store().views.drop(name);
      await materializeAll(store());
      expect(await traces(store(), phrase)).toEqual([]);
      expect(await traces(store(), 'doomed', [tombstoneId('doomed')])).toEqual([]);
    });
  });
}
