/**
 * The contract for the `session_secrets` view, run against every engine: the list's `hasSecrets`
 * filter (alone, with other filters, in search, totals and the daily activity), the counts read
 * back by id, a summary rewritten or deleted, a rebuild from the documents, and summaries written
 * before secrets were counted (no row: neither found nor filtered in).
 */
import { expect, it } from 'vitest';
import { docIds } from '../../core/doc-ids.js';
import { ViewMissingError } from '../contract.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';
import { materializeAll } from './views-sessions.case.js';
import { chunkDoc, entry, putDocs, summaryDoc } from './view-fixtures.js';

const page = { limit: 50, offset: 0 };
const span = (day: number): [string, string] => [
  `2025-03-0${day}T10:00:00.000Z`,
  `2025-03-0${day}T11:00:00.000Z`,
];

export function describeSecretsContract(options: ContractOptions): void {
  describeWithStore(options, 'session secrets', (store) => {
    it('filters the list on sessions holding likely secrets and reads their counts', async () => {
      const s = store();
      await materializeAll(s);
      await putDocs(s, [
        summaryDoc('a', { span: span(1), secrets: { total: 3, byRule: { github: 2, aws: 1 } } }),
        summaryDoc('b', { span: span(2), cwd: '/work/other', secrets: { total: 1, byRule: { slack: 1 } } }),
        summaryDoc('c', { span: span(3), secrets: { total: 0, byRule: {} } }),
        // Written before secrets were counted: unknown, so never listed as holding one.
        summaryDoc('d', { span: span(4) }),
        chunkDoc('a', [entry(0, 'user', 'the pool is draining')]),
        chunkDoc('c', [entry(0, 'user', 'the pool is full')]),
      ]);
      const ids = async (filter: object) =>
        (await s.views.listSessions(filter, page)).rows.map((r) => r.summary.sessionId).sort();
      expect(await ids({})).toEqual(['a', 'b', 'c', 'd']);
      expect(await ids({ hasSecrets: true })).toEqual(['a', 'b']);
      expect(await ids({ hasSecrets: true, cwd: '/work/other' })).toEqual(['b']);
      expect(await ids({ hasSecrets: false })).toEqual(['a', 'b', 'c', 'd']);
      expect(
        (await s.views.search({ q: 'pool', hasSecrets: true, ...page })).hits.map((h) => h.sessionId),
      ).toEqual(['a']);
      expect((await s.views.tokenTotals({ hasSecrets: true })).sessions).toBe(2);
      const days = await s.views.dailyActivity('2025-03-01', '2025-03-09', { hasSecrets: true });
      expect(days.map((d) => d.sessionId).sort()).toEqual(['a', 'b']);

      const counts = await s.views.sessionSecrets(['a', 'b', 'c', 'd', 'nope']);
      expect([...counts.keys()].sort()).toEqual(['a', 'b', 'c']);
      expect(counts.get('a')).toEqual({ sessionId: 'a', total: 3, byRule: { github: 2, aws: 1 } });
      expect(counts.get('c')).toEqual({ sessionId: 'c', total: 0, byRule: {} });
      expect((await s.views.sessionSecrets([])).size).toBe(0);
    });

    it('follows a summary rewritten or deleted, and rebuilds from the documents', async () => {
      const s = store();
      await materializeAll(s);
      await putDocs(s, [summaryDoc('a', { span: span(1), secrets: { total: 1, byRule: { npm: 1 } } })]);
      await putDocs(s, [summaryDoc('a', { span: span(1), secrets: { total: 0, byRule: {} } })]);
      const filtered = async () =>
        (await s.views.listSessions({ hasSecrets: true }, page)).rows.map((r) => r.summary.sessionId);
      expect(await filtered()).toEqual([]);
      await putDocs(s, [summaryDoc('b', { span: span(2), secrets: { total: 2, byRule: { openai: 2 } } })]);
      expect(await filtered()).toEqual(['b']);

      // Dropped and built again from the summaries: the same answers.
      await s.views.drop('session_secrets');
      await expect(s.views.sessionSecrets(['b'])).rejects.toBeInstanceOf(ViewMissingError);
      await expect(s.views.listSessions({ hasSecrets: true }, page)).rejects.toBeInstanceOf(ViewMissingError);
      await s.views.materialize('session_secrets');
      expect(await filtered()).toEqual(['b']);
      expect((await s.views.sessionSecrets(['a', 'b'])).get('b')?.byRule).toEqual({ openai: 2 });

      const bRev = (await s.docs.getRevs([docIds.summary('b')])).get(docIds.summary('b'))!;
      await s.docs.delete(docIds.summary('b'), bRev);
      expect(await filtered()).toEqual([]);
      expect((await s.views.sessionSecrets(['b'])).size).toBe(0);
    });
  });
}
