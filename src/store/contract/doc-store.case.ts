/**
 * The document-store contract, run against every engine (STYLE §6). Imports only the contract
 * and core, so it cannot lean on an engine's internals.
 */
import { expect, it } from 'vitest';
import { contentHash, parseRev } from '../../core/revision.js';
import { StoreInputError, type DocStore, type StoredDoc } from '../contract.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';

export function describeDocStoreContract(options: ContractOptions): void {
  describeWithStore(options, 'bulk upsert revisions', (store) => {
    const docs = (): DocStore => store().docs;

    it('creates a document at revision 1 and bumps the revision on every change', async () => {
      const [created] = await docs().bulkUpsert([{ _id: 'a', sessionId: 's1', n: 1 }]);
      expect(created).toMatchObject({ id: 'a', status: 'written' });
      expect(parseRev(created!.rev!)).toEqual({ n: 1, hash: contentHash({ sessionId: 's1', n: 1 }) });
      expect(await docs().get('a')).toEqual({ _id: 'a', _rev: created!.rev, sessionId: 's1', n: 1 });

      const [changed] = await docs().bulkUpsert([{ _id: 'a', _rev: created!.rev, sessionId: 's1', n: 2 }]);
      expect(changed!.status).toBe('written');
      expect(parseRev(changed!.rev!)?.n).toBe(2);
      expect((await docs().get('a'))?.n).toBe(2);
      expect(await docs().getRevs(['a', 'missing'])).toEqual(new Map([['a', changed!.rev]]));
    });

    it('reports identical content as unchanged whatever _rev and key order it carries', async () => {
      const [first] = await docs().bulkUpsert([{ _id: 'a', x: 1, nested: { p: 1, q: [1, { r: 2, s: 3 }] } }]);
      const again = await docs().bulkUpsert([
        { _id: 'a', x: 1, nested: { p: 1, q: [1, { r: 2, s: 3 }] } },
        { _id: 'a', _rev: '7-0123abcd', x: 1, nested: { p: 1, q: [1, { r: 2, s: 3 }] } },
        { nested: { q: [1, { s: 3, r: 2 }], p: 1 }, x: 1, _id: 'a' },
      ]);
      expect(again.map((r) => r.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
      expect(again.every((r) => r.rev === first!.rev)).toBe(true);
      expect((await docs().changes(0)).results).toHaveLength(1);
    });

    it('rejects a document without a usable _id, naming its index, and writes nothing', async () => {
      for (const bad of [{ _id: '' }, { _id: 42 }, { x: 1 }]) {
        const err = await docs()
          .bulkUpsert([{ _id: 'ok' }, bad as never])
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StoreInputError);
        expect((err as Error).message).toContain('docs[1]');
      }
      expect(await docs().get('ok')).toBeNull();
    });
  });

  describeWithStore(options, 'bulk upsert conflicts', (store) => {
    it('reports conflicts per document in a mixed batch without aborting the others', async () => {
      const docs = store().docs;
      const seeded = await docs.bulkUpsert([
        { _id: 'a', v: 1 },
        { _id: 'b', v: 1 },
      ]);
      const revA = seeded[0]!.rev!;
      const revB = seeded[1]!.rev!;
      const results = await docs.bulkUpsert([
        { _id: 'a', v: 2 }, // exists, no _rev
        { _id: 'b', _rev: revB, v: 2 }, // current _rev
        { _id: 'c', v: 1 }, // new
        { _id: 'd', _rev: '1-abc', v: 1 }, // new but claims a revision
        { _id: 'a', _rev: '9-0000', v: 3 }, // stale _rev
        { _id: 'b', v: 1 }, // no _rev, content now differs from stored
      ]);
      expect(results.map((r) => [r.id, r.status])).toEqual([
        ['a', 'conflict'],
        ['b', 'written'],
        ['c', 'written'],
        ['d', 'conflict'],
        ['a', 'conflict'],
        ['b', 'conflict'],
      ]);
      for (const r of results.filter((x) => x.status === 'conflict')) expect(r.reason).toBeTruthy();
      expect(results[0]!.rev).toBe(revA);
      expect(await docs.get('a')).toMatchObject({ _rev: revA, v: 1 });
      expect(await docs.get('b')).toMatchObject({ _rev: results[1]!.rev, v: 2 });
      expect(await docs.get('c')).toMatchObject({ v: 1 });
      expect(await docs.get('d')).toBeNull();
    });

    it('treats a repeated id in one batch as a write followed by a conflicting write', async () => {
      const results = await store().docs.bulkUpsert([
        { _id: 'x', v: 1 },
        { _id: 'x', v: 2 },
      ]);
      expect(results.map((r) => r.status)).toEqual(['written', 'conflict']);
      expect((await store().docs.get('x'))?.v).toBe(1);
    });
  });

  describeWithStore(options, 'delete and tombstones', (store) => {
    it('deletes at the current revision, keeps a tombstone in the changes, and recreates', async () => {
      const docs = store().docs;
      const [created] = await docs.bulkUpsert([{ _id: 'a', v: 1 }]);
      expect((await docs.delete('a', '1-0000')).status).toBe('conflict');
      expect((await docs.delete('missing', '1-0000')).status).toBe('conflict');

      const deleted = await docs.delete('a', created!.rev!);
      expect(deleted.status).toBe('written');
      expect(parseRev(deleted.rev!)?.n).toBe(2);
      expect(await docs.get('a')).toBeNull();
      expect(await docs.getRevs(['a'])).toEqual(new Map());
      expect((await docs.allDocs()).rows).toEqual([]);
      expect((await docs.allDocs()).total_rows).toBe(0);
      const changes = await docs.changes(0);
      expect(changes.results).toEqual([{ seq: changes.lastSeq, id: 'a', rev: deleted.rev, deleted: true }]);

      // A tombstone is recreated without _rev; identical old content is still a new write.
      const [recreated] = await docs.bulkUpsert([{ _id: 'a', v: 1 }]);
      expect(recreated!.status).toBe('written');
      expect(parseRev(recreated!.rev!)?.n).toBe(3);
      expect(await docs.get('a')).toEqual({ _id: 'a', _rev: recreated!.rev, v: 1 });
      const after = await docs.changes(0);
      expect(after.results).toHaveLength(1);
      expect(after.results[0]).toMatchObject({ id: 'a', rev: recreated!.rev, deleted: false });
      expect(after.results[0]!.seq).toBeGreaterThan(changes.lastSeq);
    });
  });

  describeWithStore(options, 'all docs paging', (store) => {
    const ids = Array.from({ length: 300 }, (_, i) => `doc-${String(i).padStart(4, '0')}`);

    async function seed(): Promise<Map<string, string>> {
      const results = await store().docs.bulkUpsert(
        ids.map((id, i) => ({ _id: id, sessionId: `s${i % 7}`, i })),
      );
      return new Map(results.map((r) => [r.id, r.rev!]));
    }

    it('lists live documents in id order with CouchDB fields and total_rows', async () => {
      const revs = await seed();
      const docs = store().docs;
      await docs.delete('doc-0005', revs.get('doc-0005')!);
      const all = await docs.allDocs();
      expect(all.total_rows).toBe(299);
      expect(all.offset).toBe(0);
      expect(all.rows.map((r) => r.id)).toEqual(ids.filter((id) => id !== 'doc-0005'));
      expect(all.rows[0]).toEqual({ id: 'doc-0000', key: 'doc-0000', value: { rev: revs.get('doc-0000') } });
      expect(all.rows.some((r) => 'doc' in r)).toBe(false);
    });

    it('honours startkey, endkey (both inclusive), skip, limit and includeDocs', async () => {
      await seed();
      const docs = store().docs;
      const page = await docs.allDocs({ startkey: 'doc-0100', limit: 3, includeDocs: true });
      expect(page.rows.map((r) => r.id)).toEqual(['doc-0100', 'doc-0101', 'doc-0102']);
      expect(page.rows[1]!.doc).toEqual({
        _id: 'doc-0101',
        _rev: page.rows[1]!.value.rev,
        sessionId: 's3',
        i: 101,
      });
      expect(page.total_rows).toBe(300);

      const skipped = await docs.allDocs({ startkey: 'doc-0100', skip: 2, limit: 2 });
      expect(skipped.rows.map((r) => r.id)).toEqual(['doc-0102', 'doc-0103']);
      expect(skipped.offset).toBe(2);

      const ranged = await docs.allDocs({ startkey: 'doc-0200', endkey: 'doc-0204' });
      expect(ranged.rows.map((r) => r.id)).toEqual([
        'doc-0200',
        'doc-0201',
        'doc-0202',
        'doc-0203',
        'doc-0204',
      ]);
      expect((await docs.allDocs({ startkey: 'doc-0299x' })).rows).toEqual([]);
      expect((await docs.allDocs({ endkey: 'doc-0001' })).rows.map((r) => r.id)).toEqual([
        'doc-0000',
        'doc-0001',
      ]);
      expect((await docs.allDocs({ limit: 0 })).rows).toEqual([]);
      await expect(docs.allDocs({ limit: -1 })).rejects.toBeInstanceOf(StoreInputError);
    });

    it('pages through everything exactly once with startkey + skip 1', async () => {
      await seed();
      const seen: string[] = [];
      let startkey: string | undefined;
      for (;;) {
        const page = await store().docs.allDocs({
          startkey,
          skip: startkey ? 1 : 0,
          limit: 64,
          includeDocs: true,
        });
        seen.push(...page.rows.map((r) => (r.doc as StoredDoc)._id));
        if (page.rows.length < 64) break;
        startkey = page.rows[page.rows.length - 1]!.id;
      }
      expect(seen).toEqual(ids);
    });

    it('hands out stored bodies as the UTF-8 bytes of their canonical JSON, paged by after, endkey, limit and maxBytes', async () => {
      const revs = await seed();
      const docs = store().docs;
      await docs.delete('doc-0005', revs.get('doc-0005')!);
      await docs.bulkUpsert([
        { _id: 'doc-0007', _rev: revs.get('doc-0007'), sessionId: 's0', z: [1], a: 'é\n' },
      ]);
      const first = await docs.bodies({ limit: 8 });
      expect(first.map((r) => r.id)).toEqual([
        'doc-0000',
        'doc-0001',
        'doc-0002',
        'doc-0003',
        'doc-0004',
        'doc-0006',
        'doc-0007',
        'doc-0008',
      ]);
      expect(first[0]!.body.toString()).toBe('{"i":0,"sessionId":"s0"}');
      // Keys sorted, nothing but the content: the body is what the revision hashes.
      expect(first[6]!.body.toString()).toBe('{"a":"é\\n","sessionId":"s0","z":[1]}');
      const { _id, _rev, ...content } = (await docs.get('doc-0007'))!;
      expect(JSON.parse(first[6]!.body.toString())).toEqual(content);

      expect(
        (await docs.bodies({ after: 'doc-0008', endkey: 'doc-0010', limit: 100 })).map((r) => r.id),
      ).toEqual(['doc-0009', 'doc-0010']);
      expect((await docs.bodies({ startkey: 'doc-0299', limit: 100 })).map((r) => r.id)).toEqual([
        'doc-0299',
      ]);
      expect(
        (await docs.bodies({ startkey: 'doc-0100', after: 'doc-0200', limit: 1 })).map((r) => r.id),
      ).toEqual(['doc-0201']);
      // maxBytes ends a page early, after the row that crossed it; a page always holds a row.
      const small = await docs.bodies({ limit: 100, maxBytes: 30 });
      expect(small.map((r) => r.id)).toEqual(['doc-0000', 'doc-0001']);
      expect((await docs.bodies({ limit: 100, maxBytes: 0 })).length).toBe(1);

      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await docs.bodies({ after, limit: 64, maxBytes: 500 });
        if (page.length === 0) break;
        seen.push(...page.map((r) => r.id));
        after = page[page.length - 1]!.id;
      }
      expect(seen).toEqual(ids.filter((id) => id !== 'doc-0005'));
      await expect(docs.bodies({ limit: -1 })).rejects.toBeInstanceOf(StoreInputError);
    });
  });

  describeWithStore(options, 'snapshot', (store) => {
    it('reads every page as the store was when it opened, whatever is written meanwhile, without blocking writers', async () => {
      const docs = store().docs;
      const written = await docs.bulkUpsert([
        { _id: 'chunk:s1:a', sessionId: 's1', n: 1 },
        { _id: 'event:s1:b', sessionId: 's1', n: 1 },
        { _id: 'summary:s1', sessionId: 's1', entries: 1 },
      ]);
      const snapshot = await docs.snapshot();
      try {
        const first = await snapshot.bodies({ limit: 1 });
        expect(first.map((r) => r.id)).toEqual(['chunk:s1:a']);
        // Written (and deleted) while the snapshot is open: the writes go through at once.
        const meanwhile = await docs.bulkUpsert([
          { _id: 'chunk:s1:c', sessionId: 's1', n: 2 },
          { _id: 'summary:s1', _rev: written[2]!.rev, sessionId: 's1', entries: 2 },
        ]);
        expect(meanwhile.map((r) => r.status)).toEqual(['written', 'written']);
        expect((await docs.delete('event:s1:b', written[1]!.rev!)).status).toBe('written');
        const rest = await snapshot.bodies({ after: 'chunk:s1:a', limit: 100 });
        expect(rest.map((r) => [r.id, JSON.parse(r.body.toString())])).toEqual([
          ['event:s1:b', { sessionId: 's1', n: 1 }],
          ['summary:s1', { sessionId: 's1', entries: 1 }],
        ]);
      } finally {
        await snapshot.close();
      }
      await snapshot.close(); // idempotent
      await expect(snapshot.bodies({ limit: 1 })).rejects.toThrow();
      // A new read sees the writes.
      expect((await docs.bodies({ limit: 100 })).map((r) => r.id)).toEqual([
        'chunk:s1:a',
        'chunk:s1:c',
        'summary:s1',
      ]);
    });
  });

  describeWithStore(options, 'changes', (store) => {
    it('returns each document once, at its latest change, after a sequence number', async () => {
      const docs = store().docs;
      const written = await docs.bulkUpsert([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]);
      const first = await docs.changes(0);
      expect(first.results.map((c) => c.id)).toEqual(['a', 'b', 'c']);
      expect(first.results.map((c) => c.rev)).toEqual(written.map((w) => w.rev));
      const seqs = first.results.map((c) => c.seq);
      expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
      expect(first.lastSeq).toBe(seqs[2]);

      expect((await docs.changes(seqs[0]!)).results.map((c) => c.id)).toEqual(['b', 'c']);
      expect((await docs.changes(0, 2)).results.map((c) => c.id)).toEqual(['a', 'b']);
      expect((await docs.changes(0, 2)).lastSeq).toBe(seqs[1]);

      const [updated] = await docs.bulkUpsert([{ _id: 'a', _rev: written[0]!.rev, v: 2 }]);
      const later = await docs.changes(first.lastSeq);
      expect(later.results).toEqual([{ seq: later.lastSeq, id: 'a', rev: updated!.rev, deleted: false }]);
      expect((await docs.changes(0)).results.map((c) => c.id)).toEqual(['b', 'c', 'a']);

      const idle = await docs.changes(later.lastSeq);
      expect(idle).toEqual({ results: [], lastSeq: later.lastSeq });
    });

    it('does not record unchanged rewrites or conflicts', async () => {
      const docs = store().docs;
      await docs.bulkUpsert([{ _id: 'a', v: 1 }]);
      const { lastSeq } = await docs.changes(0);
      await docs.bulkUpsert([
        { _id: 'a', v: 1 },
        { _id: 'a', v: 2 },
      ]);
      expect((await docs.changes(lastSeq)).results).toEqual([]);
    });
  });

  describeWithStore(options, 'local documents and schema marker', (store) => {
    it('keeps local documents out of listings, changes and revisions', async () => {
      const docs = store().docs;
      expect(await docs.getLocal('_local/cursor')).toBeNull();
      await docs.putLocal('_local/cursor', { offset: 10, files: ['a'] });
      await docs.putLocal('_local/cursor', { offset: 20, files: ['a', 'b'] });
      expect(await docs.getLocal('_local/cursor')).toEqual({ offset: 20, files: ['a', 'b'] });
      expect((await docs.allDocs()).rows).toEqual([]);
      expect((await docs.allDocs()).total_rows).toBe(0);
      expect((await docs.changes(0)).results).toEqual([]);
      expect(await docs.get('_local/cursor')).toBeNull();
      await docs.deleteLocal('_local/cursor');
      expect(await docs.getLocal('_local/cursor')).toBeNull();
      await expect(docs.bulkUpsert([{ _id: '_local/x' }])).rejects.toBeInstanceOf(StoreInputError);
      await expect(docs.putLocal('_local/y', undefined)).rejects.toBeInstanceOf(StoreInputError);
    });

    it('round-trips the schema marker', async () => {
      const docs = store().docs;
      expect(await docs.getSchemaMarker()).toBeNull();
      const marker = {
        version: 2,
        history: [
          { version: 1, name: 'one', direction: 'up' as const, at: '2025-01-01T00:00:00.000Z' },
          { version: 2, name: 'two', direction: 'up' as const, at: '2025-01-01T00:00:01.000Z' },
        ],
      };
      await docs.setSchemaMarker(marker);
      expect(await docs.getSchemaMarker()).toEqual(marker);
      await docs.setSchemaMarker({
        version: 1,
        history: [...marker.history, { ...marker.history[1]!, direction: 'down' }],
      });
      expect((await docs.getSchemaMarker())?.version).toBe(1);
      expect((await docs.getSchemaMarker())?.history).toHaveLength(3);
      expect((await docs.allDocs()).rows).toEqual([]);
    });
  });

  describeWithStore(options, 'commit', (store) => {
    it('writes documents and local state together, conflicts reported per document', async () => {
      const docs = store().docs;
      await docs.bulkUpsert([{ _id: 'held', v: 1 }]);
      const results = await docs.commit(
        [
          { _id: 'chunk-1', sessionId: 's', v: 1 },
          { _id: 'held', v: 2 },
        ],
        [{ id: '_local/cursor', value: { offset: 99 } }],
      );
      expect(results.map((r) => r.status)).toEqual(['written', 'conflict']);
      expect(await docs.get('chunk-1')).not.toBeNull();
      expect(await docs.getLocal('_local/cursor')).toEqual({ offset: 99 });
    });

    it('rejects the whole commit when one document fails validation', async () => {
      const docs = store().docs;
      const err = await docs
        .commit([{ _id: 'good', v: 1 }, { _id: '' }], [{ id: '_local/cursor', value: { offset: 1 } }])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreInputError);
      expect((err as Error).message).toContain('docs[1]');
      expect(await docs.get('good')).toBeNull();
      expect(await docs.getLocal('_local/cursor')).toBeNull();
      expect((await docs.changes(0)).results).toEqual([]);

      await expect(docs.commit([{ _id: 'good' }], [{ id: '', value: 1 }])).rejects.toBeInstanceOf(
        StoreInputError,
      );
      expect(await docs.get('good')).toBeNull();
    });
  });
}
