/**
 * Views contract, search and calendar: the query grammar (words, "phrases", prefix*), hostile
 * input that must never be an error, snippet marks, filters, reindex, and daily activity split
 * at UTC midnight.
 */
import { expect, it } from 'vitest';
import { SEARCH_STALE, type SearchQuery, type Store } from '../contract.js';
import { deferredStale, olderFormStale } from '../views-common/search-stale.js';
import type { ChunkDoc } from '../../core/documents.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';
import { chunkDoc, entry, putDocs, summaryDoc } from './view-fixtures.js';
import { materializeAll } from './views-sessions.case.js';
import { RANK_WINDOW } from '../views-common/rank-window.js';

export async function seedSearch(store: Store): Promise<void> {
  await putDocs(store, [
    summaryDoc('q1', {
      span: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z'],
      cwd: '/work/alpha',
      project: 'alpha',
      models: ['claude-opus-4'],
    }),
    summaryDoc('q2', {
      span: ['2025-03-05T10:00:00.000Z', '2025-03-05T11:00:00.000Z'],
      cwd: '/work/beta',
      project: 'beta',
      models: ['claude-sonnet-4'],
    }),
    chunkDoc('q1', [
      entry(0, 'user', 'How do I configure the PostgreSQL connection pool?'),
      entry(1, 'assistant', 'Use the pool size setting in the config file.', {
        thinking: 'The user wants pooling advice',
      }),
      entry(2, 'assistant', undefined, {
        toolUses: [{ id: 't1', name: 'Bash', input: { command: 'grep -r maxConnections src/' } }],
      }),
      entry(3, 'tool_result', undefined, {
        toolResults: [{ toolUseId: 't1', content: 'src/db.ts: maxConnections = 10', isError: false }],
      }),
      entry(4, 'user', 'Café au lait and a naïve résumé'),
      entry(5, 'user', '日本語 テキスト and an emoji 🚀 here'),
    ]),
    chunkDoc('q2', [entry(0, 'user', 'connection refused on the pool')]),
  ]);
}

export function describeSearchViews(options: ContractOptions): void {
  describeWithStore(options, 'full-text search', (store) => {
    const search = (q: string, extra: Partial<SearchQuery> = {}) =>
      store().views.search({ q, limit: 20, offset: 0, ...extra });
    const found = async (q: string, extra: Partial<SearchQuery> = {}) =>
      (await search(q, extra)).hits.map((h) => `${h.sessionId}#${h.index}`).sort();

    it('matches all bare words, "phrases" and prefix* terms', async () => {
      await materializeAll(store());
      await seedSearch(store());
      expect(await found('pool')).toEqual(['q1#0', 'q1#1', 'q2#0']);
      expect(await found('POOL Connection')).toEqual(['q1#0', 'q2#0']);
      expect(await found('"connection pool"')).toEqual(['q1#0']);
      expect(await found('"the pool"')).toEqual(['q1#1', 'q2#0']);
      expect(await found('"pool connection"')).toEqual([]);
      expect(await found('config*')).toEqual(['q1#0', 'q1#1']);
      expect(await found('"pool si"*')).toEqual(['q1#1']);
      expect(await found('nothing-like-this')).toEqual([]);
    });

    it('finds a phrase of common words wherever its words stand next to each other', async () => {
      await materializeAll(store());
      await putDocs(store(), [
        summaryDoc('p1', { span: ['2025-04-01T10:00:00.000Z', '2025-04-01T11:00:00.000Z'] }),
        chunkDoc('p1', [
          entry(0, 'user', 'Please read the file.'),
          entry(1, 'user', 'The file? Read it.'),
          entry(2, 'user', 'READ, THE  FILE: done'),
          entry(3, 'user', 'Read the files, the file read'),
          entry(4, 'user', 'Café: read the file first'),
          entry(5, 'user', 'naïve read the fix'),
          entry(6, 'assistant', undefined, {
            toolUses: [{ id: 't', name: 'Read', input: { note: 'read the file_path' } }],
          }),
          entry(7, 'user', `${'of the '.repeat(100)}read the end of the file`),
        ]),
      ]);
      expect(await found('"read the file"')).toEqual(['p1#0', 'p1#2', 'p1#4', 'p1#6']);
      expect(await found('"read the fi"*')).toEqual(['p1#0', 'p1#2', 'p1#3', 'p1#4', 'p1#5', 'p1#6']);
      expect(await found('"the file" "read the"')).toEqual(['p1#0', 'p1#2', 'p1#3', 'p1#4', 'p1#6', 'p1#7']);
      expect(await found('"of the file"')).toEqual(['p1#7']);
      expect(await found('"the file read"')).toEqual(['p1#1', 'p1#3']);
      expect(await found('"read the file" café')).toEqual(['p1#4']);
      expect(await found('"file the"')).toEqual([]);
    });

    it('indexes thinking, tool inputs and tool results, and folds accents', async () => {
      await materializeAll(store());
      await seedSearch(store());
      expect(await found('pooling')).toEqual(['q1#1']);
      expect(await found('maxConnections')).toEqual(['q1#2', 'q1#3']);
      expect(await found('grep')).toEqual(['q1#2']);
      expect(await found('cafe')).toEqual(['q1#4']);
      expect(await found('résumé naive')).toEqual(['q1#4']);
      expect(await found('日本語')).toEqual(['q1#5']);
      expect(await found('テキスト')).toEqual(['q1#5']);
      const hit = (await search('grep')).hits[0]!;
      expect(hit).toMatchObject({ sessionId: 'q1', file: 'transcript.jsonl', index: 2, role: 'assistant' });
      expect(hit.timestamp).toBe('2025-03-01T10:02:00.000Z');
    });

    it('finds each line of a tool input, its words apart from the line breaks and tabs around them', async () => {
      await materializeAll(store());
      await putDocs(store(), [
        summaryDoc('ti', { span: ['2025-06-02T10:00:00.000Z', '2025-06-02T11:00:00.000Z'] }),
        chunkDoc('ti', [
          entry(0, 'assistant', undefined, {
            toolUses: [
              {
                id: 't1',
                name: 'Bash',
                input: { command: 'cd /tmp\nzebraword --flag\ttabbedword "quoted"' },
              },
              { id: 't2', name: 'Edit', input: { file_path: '/a.ts', new_string: 'one\n\nsecondline();\n' } },
            ],
          }),
        ]),
      ]);
      expect(await found('zebraword')).toEqual(['ti#0']);
      expect(await found('tabbedword')).toEqual(['ti#0']);
      expect(await found('secondline')).toEqual(['ti#0']);
      expect(await found('"zebraword flag tabbedword"')).toEqual(['ti#0']);
      // Nothing of the JSON escapes is left to find.
      expect(await found('nzebraword')).toEqual([]);
      const snippet = (await search('zebraword')).hits[0]!.snippet.map((s) => s.text).join('');
      expect(snippet).toContain('command: cd /tmp\nzebraword --flag\ttabbedword "quoted"');
    });

    it('finds a word a terminal escape code coloured, and leaves the codes out of the snippet', async () => {
      await materializeAll(store());
      await putDocs(store(), [
        summaryDoc('ansi', { span: ['2025-06-03T10:00:00.000Z', '2025-06-03T11:00:00.000Z'] }),
        chunkDoc('ansi', [
          entry(0, 'tool_result', undefined, {
            toolResults: [
              {
                toolUseId: 't1',
                content:
                  '\x1b[1m\x1b[31mFAILED\x1b[0m tests/parser.test.ts\n' +
                  'see \x1b]8;;https://example.com/run\x07hyperlinkword\x1b]8;;\x07 \x1b]0;titleword\x07done',
                isError: true,
              },
            ],
          }),
          entry(1, 'assistant', '\x1b[32mgreenword\x1b[39m and plain'),
        ]),
      ]);
      expect(await found('failed')).toEqual(['ansi#0']);
      expect(await found('"failed tests parser"')).toEqual(['ansi#0']);
      expect(await found('hyperlinkword')).toEqual(['ansi#0']);
      expect(await found('greenword')).toEqual(['ansi#1']);
      // Nothing of the codes is left to find: not glued to a word, not a word of its own.
      expect(await found('31mfailed')).toEqual([]);
      expect(await found('titleword')).toEqual([]);
      expect(await found('example')).toEqual([]);
      const snippet = (await search('failed')).hits[0]!.snippet.map((s) => s.text).join('');
      expect(snippet).toContain('FAILED tests/parser.test.ts');
      expect([...snippet].filter((c) => c === '\x1b' || c === '\x07')).toEqual([]);
    });

    it('finds a word anywhere in what the reader shows of an entry, however long', async () => {
      await materializeAll(store());
      const filler = 'context words repeated '.repeat(600); // 13,800 characters
      await putDocs(store(), [
        summaryDoc('long', { span: ['2025-06-01T10:00:00.000Z', '2025-06-01T11:00:00.000Z'] }),
        chunkDoc('long', [
          entry(0, 'user', `${filler} the compaction summary ends here`, { isCompactSummary: true }),
          entry(1, 'tool_result', undefined, {
            toolResults: [
              { toolUseId: 't', content: `${filler} Successfully uninstalled pip`, isError: false },
            ],
          }),
        ]),
      ]);
      expect(await found('compaction')).toEqual(['long#0']);
      expect(await found('uninstalled')).toEqual(['long#1']);
    });

    it('never fails on hostile input and treats operators literally', async () => {
      await materializeAll(store());
      await seedSearch(store());
      const nasty = [
        '"',
        '""',
        '"""',
        '*',
        '**',
        'NEAR(',
        'NEAR(pool connection)',
        'a OR',
        'OR',
        'AND',
        'NOT',
        '-x',
        '-pool',
        'col:x',
        'text:pool',
        ':',
        '^pool',
        '(pool',
        'pool)',
        '{pool}',
        "pool'",
        '\\',
        '%',
        '_',
        '+pool',
        'pool"',
        '"pool',
        'pool*"',
        '*pool',
        'po*ol',
        '🚀',
        '\u0000',
        '\u0001pool\u0002',
        '\ud800',
        'ẞ',
        'x'.repeat(5000),
        'pool '.repeat(200),
        ';DROP TABLE docs;--',
      ];
      for (const q of nasty) {
        const result = await search(q);
        expect(result.total, q).toBe(result.hits.length);
      }
      expect(await found('pool"')).toEqual(['q1#0', 'q1#1', 'q2#0']);
      expect(await found('"pool')).toEqual(['q1#0', 'q1#1', 'q2#0']);
      expect(await found('(pool)')).toEqual(['q1#0', 'q1#1', 'q2#0']);
      expect(await found('text:pool')).toEqual([]);
      expect(await found('pool OR nothing')).toEqual([]);
      expect(await search('')).toEqual({ total: 0, totalExact: true, hits: [] });
      expect(await search('   "" * ')).toEqual({ total: 0, totalExact: true, hits: [] });
      expect(await search('🚀')).toEqual({ total: 0, totalExact: true, hits: [] });
      expect((await search(';DROP TABLE docs;--')).total).toBe(0);
      expect(await store().docs.get('summary:q1')).not.toBeNull();
    });

    it('returns plain-text snippets with the matches marked', async () => {
      await materializeAll(store());
      await seedSearch(store());
      const { hits } = await search('pool', { idPrefix: 'q2' });
      expect(hits).toHaveLength(1);
      expect(hits[0]!.snippet).toEqual([
        { text: 'connection refused on the ', mark: false },
        { text: 'pool', mark: true },
      ]);
      for (const hit of (await search('config* pool')).hits) {
        expect(hit.snippet.some((s) => s.mark)).toBe(true);
        // eslint-disable-next-line no-control-regex -- no marker character may leak into a snippet
        expect(hit.snippet.every((s) => !/[\u0000-\u0008]/.test(s.text))).toBe(true);
      }
    });

    it('finds a Chinese, Japanese or Korean word inside a run of text, and marks just that word', async () => {
      await materializeAll(store());
      await putDocs(store(), [
        summaryDoc('c1', {
          span: ['2025-05-01T10:00:00.000Z', '2025-05-01T11:00:00.000Z'],
          cwd: '/work/cjk',
        }),
        chunkDoc('c1', [
          entry(0, 'user', '扫描文件时出错，请检查API调用的参数。'),
          entry(1, 'assistant', 'テストサーバーを起動してから、ログを確認してください。'),
          entry(2, 'user', '설정 파일을 검색합니다'),
          entry(3, 'assistant', '文件已经扫描完毕'),
          entry(4, 'user', 'かき'),
          // が written decomposed: か and a combining voicing mark.
          entry(5, 'user', 'か\u3099き'),
        ]),
      ]);
      const everywhere = async (q: string) => {
        const plain = await found(q);
        // Filtered and unfiltered searches take different paths; both must agree.
        expect(await found(q, { cwd: '/work/cjk' })).toEqual(plain);
        return plain;
      };
      expect(await everywhere('扫描')).toEqual(['c1#0', 'c1#3']);
      expect(await everywhere('文件 扫描')).toEqual(['c1#0', 'c1#3']);
      expect(await everywhere('"扫描文件"')).toEqual(['c1#0']);
      expect(await everywhere('描文')).toEqual(['c1#0']);
      expect(await everywhere('API调用')).toEqual(['c1#0']);
      expect(await everywhere('サーバー')).toEqual(['c1#1']);
      expect(await everywhere('起動')).toEqual(['c1#1']);
      expect(await everywhere('파일')).toEqual(['c1#2']);
      expect(await everywhere('文件扫描')).toEqual([]);
      // Voicing changes the word: がき is not かき, however it was written.
      expect(await everywhere('かき')).toEqual(['c1#4']);
      expect(await everywhere('がき')).toEqual(['c1#5']);
      expect(await everywhere('か\u3099')).toEqual(['c1#5']);

      for (const filter of [{}, { cwd: '/work/cjk' }]) {
        const { hits } = await search('扫描', { ...filter, idPrefix: 'c1' });
        const first = hits.find((h) => h.index === 0)!;
        expect(first.snippet.filter((seg) => seg.mark).map((seg) => seg.text)).toEqual(['扫描']);
        expect(first.snippet.map((seg) => seg.text).join('')).toBe('扫描文件时出错，请检查API调用的参数。');
      }
    });

    it('filters like the session list, ranks best first and pages', async () => {
      await materializeAll(store());
      await seedSearch(store());
      expect(await found('pool', { cwd: '/work/beta' })).toEqual(['q2#0']);
      expect(await found('pool', { project: 'beta' })).toEqual(['q2#0']);
      expect(await found('pool', { project: 'work' })).toEqual([]);
      expect(await found('pool', { model: 'claude-opus-4' })).toEqual(['q1#0', 'q1#1']);
      expect(await found('pool', { from: '2025-03-04T00:00:00Z' })).toEqual(['q2#0']);
      expect(
        await found('pool', { to: '2025-03-02T00:00:00Z', hostname: 'laptop', source: 'backfill' }),
      ).toEqual(['q1#0', 'q1#1']);
      const all = await search('pool');
      expect(all.total).toBe(3);
      const ranks = all.hits.map((h) => h.rank);
      expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
      const pages = [0, 1, 2].map((offset) => search('pool', { limit: 1, offset }));
      const paged = (await Promise.all(pages)).map((p) => {
        expect(p.total).toBe(3);
        return p.hits.map((h) => `${h.sessionId}#${h.index}`)[0];
      });
      expect(paged).toEqual(all.hits.map((h) => `${h.sessionId}#${h.index}`));
      expect((await search('pool', { limit: 0 })).hits).toEqual([]);
    });

    it('orders equal ranks by session, file and index, page after page, whatever the write order', async () => {
      await materializeAll(store());
      // Written last session first, so the index's insertion order is the reverse of the answer's.
      for (const id of ['t3', 't2', 't1']) {
        await putDocs(store(), [summaryDoc(id, { cwd: '/work/tied' })]);
        await putDocs(store(), [
          chunkDoc(
            id,
            Array.from({ length: 40 }, (_, i) => entry(i, 'user', 'tied words')),
          ),
        ]);
      }
      const expected = ['t1', 't2', 't3'].flatMap((id) => Array.from({ length: 40 }, (_, i) => `${id}#${i}`));
      for (const filter of [{}, { cwd: '/work/tied' }]) {
        const pages: string[] = [];
        for (let offset = 0; offset < expected.length; offset += 5) {
          const page = await search('tied', { ...filter, limit: 5, offset });
          expect(page.total).toBe(expected.length);
          pages.push(...page.hits.map((h) => `${h.sessionId}#${h.index}`));
        }
        expect(pages).toEqual(expected);
      }
    });

    it('ranks a word matched past the ranking window over its most recent matches', async () => {
      await materializeAll(store());
      await putDocs(store(), [summaryDoc('w', { cwd: '/work/wide' })]);
      // 5,100 entries say "common", written oldest first, a chunk at a time. The oldest says it
      // most, so it ranks first over all of them; the newest says it twice, so it ranks first
      // among the 5,000 most recent. One entry also says "zebra".
      const n = RANK_WINDOW + 100;
      const text = (i: number) =>
        i === 0
          ? 'common common common common common'
          : i === n - 1
            ? 'common common'
            : `common entry number ${i}${i === 10 ? ' zebra' : ''}`;
      for (let at = 0; at < n; at += 1000) {
        const entries = [];
        for (let i = at; i < Math.min(n, at + 1000); i++) entries.push(entry(i, 'user', text(i)));
        await putDocs(store(), [chunkDoc('w', entries)]);
      }
      const exact = store().capabilities.exactSearchTotals;
      const everything = await search('common');
      expect(everything).toMatchObject(
        exact ? { total: n, totalExact: true } : { total: RANK_WINDOW, totalExact: false },
      );
      expect(everything.hits[0]).toMatchObject({ sessionId: 'w', index: n - 1 });
      expect(everything.hits.map((h) => h.index)).not.toContain(0);
      // A page past the window widens it, on both engines.
      const deep = await search('common', { offset: RANK_WINDOW - 10, limit: 20 });
      expect(deep.hits).toHaveLength(20);
      expect(deep).toMatchObject(exact ? { total: n } : { total: RANK_WINDOW + 10, totalExact: false });
      expect((await search('common', { limit: 0 })).totalExact).toBe(exact);
      // A filter ranks every match and counts them all.
      const filtered = await search('common', { cwd: '/work/wide' });
      expect(filtered).toMatchObject({ total: n, totalExact: true });
      expect(filtered.hits[0]).toMatchObject({ index: 0 });
      // Within the window, every match counts.
      expect(await search('zebra')).toMatchObject({ total: 1, totalExact: true, hits: [{ index: 10 }] });
    });

    it('counts, but does not rank, the one match just past the window', async () => {
      await materializeAll(store());
      await putDocs(store(), [summaryDoc('b')]);
      // One match more than the window; the oldest would rank first.
      const n = RANK_WINDOW + 1;
      const text = (i: number) => (i === 0 ? 'edge edge edge edge' : `edge ${i}`);
      for (let at = 0; at < n; at += 1000) {
        const entries = [];
        for (let i = at; i < Math.min(n, at + 1000); i++) entries.push(entry(i, 'user', text(i)));
        await putDocs(store(), [chunkDoc('b', entries)]);
      }
      const exact = store().capabilities.exactSearchTotals;
      const found = await search('edge', { limit: 50 });
      expect(found).toMatchObject(
        exact ? { total: n, totalExact: true } : { total: RANK_WINDOW, totalExact: false },
      );
      expect(found.hits).toHaveLength(50);
      expect(found.hits.map((h) => h.index)).not.toContain(0);
      // A page that reaches it widens the window: then it ranks first.
      const wide = await search('edge', { limit: n });
      expect(wide).toMatchObject({ total: n, totalExact: true });
      expect(wide.hits[0]).toMatchObject({ index: 0 });
    });

    it('leaves search alone for writes that defer it, until a reindex catches up', async () => {
      await materializeAll(store());
      await seedSearch(store());
      const docs = store().docs;
      const commit = async (doc: ChunkDoc, deferSearch: boolean) => {
        const rev = (await docs.getRevs([doc._id])).get(doc._id);
        const [r] = await docs.commit([{ ...doc, _rev: rev }], [], { deferSearch });
        expect(r!.status).toBe('written');
      };
      expect(await docs.getLocal(SEARCH_STALE)).toBeNull();
      await commit(chunkDoc('q3', [entry(0, 'user', 'zanzibar ferry times')]), true);
      await commit(chunkDoc('q2', [entry(0, 'user', 'deferred words here')]), true);
      // Search is behind, and says so; the other views are not.
      expect(await found('zanzibar')).toEqual([]);
      expect(await found('deferred')).toEqual([]);
      expect(await found('refused')).toEqual(['q2#0']);
      expect(await docs.getLocal(SEARCH_STALE)).toMatchObject({ deferredAt: expect.any(String) });
      expect(
        (await store().views.transcriptPage('q3', 'transcript.jsonl', { limit: 5, offset: 0 })).total,
      ).toBe(1);
      // An ordinary write over a chunk a deferred write replaced keeps the index whole.
      await commit(chunkDoc('q2', [entry(0, 'user', 'ordinary words now')]), false);
      expect(await found('ordinary')).toEqual(['q2#0']);
      expect(await found('refused')).toEqual([]);
      expect(await store().views.reindex()).toEqual({ entries: 8, sessions: 3 });
      expect(await found('zanzibar')).toEqual(['q3#0']);
      expect(await found('deferred')).toEqual([]);
      expect(await docs.getLocal(SEARCH_STALE)).toBeNull();
    });

    it('reindexes from the stored chunks', async () => {
      await materializeAll(store());
      await seedSearch(store());
      const before = await search('pool');
      expect(await store().views.reindex()).toEqual({ entries: 7, sessions: 2 });
      expect(await search('pool')).toEqual(before);
    });

    it('rebuilds an index in an older form, or one an import left behind long ago, and nothing else', async () => {
      const docs = store().docs;
      const views = store().views;
      const now = Date.now();
      expect(await views.reindexBehind(now)).toBeNull(); // no full-text view yet
      await materializeAll(store());
      await seedSearch(store());
      expect(await views.reindexBehind(now)).toBeNull(); // nothing stale
      // An import deferred a write at 00:00 and has written nothing since.
      const doc = chunkDoc('q3', [entry(0, 'user', 'zanzibar ferry times')]);
      await docs.commit([doc], [], { deferSearch: true });
      const at = '2025-03-01T00:00:00.000Z';
      await docs.putLocal(SEARCH_STALE, deferredStale(at));
      // Renewed no earlier than the bound: the import may still be running, and reindexes at its end.
      expect(await views.reindexBehind(Date.parse(at))).toBeNull();
      expect(await docs.getLocal(SEARCH_STALE)).toEqual(deferredStale(at));
      expect(await found('zanzibar')).toEqual([]);
      // Older than the bound: it stopped, and nobody else will.
      expect(await views.reindexBehind(Date.parse(at) + 1)).toEqual({ entries: 8, sessions: 3 });
      expect(await docs.getLocal(SEARCH_STALE)).toBeNull();
      expect(await found('zanzibar')).toEqual(['q3#0']);
      expect(await views.reindexBehind(now)).toBeNull(); // done once
      // An index in an older form is rebuilt whatever the bound.
      await docs.putLocal(SEARCH_STALE, olderFormStale(at));
      const before = await search('pool');
      expect(await views.reindexBehind(0)).toEqual({ entries: 8, sessions: 3 });
      expect(await docs.getLocal(SEARCH_STALE)).toBeNull();
      expect(await search('pool')).toEqual(before);
    });

    it('follows replaced chunks', async () => {
      await materializeAll(store());
      await seedSearch(store());
      await putDocs(store(), [
        chunkDoc('q2', [entry(0, 'user', 'a different question'), entry(1, 'assistant', 'pool answer')]),
      ]);
      expect(await found('refused')).toEqual([]);
      expect(await found('pool', { idPrefix: 'q2' })).toEqual(['q2#1']);
      expect(await found('different')).toEqual(['q2#0']);
    });
  });

  describeWithStore(options, 'daily activity', (store) => {
    it('splits activity at UTC midnight and counts entries per day', async () => {
      await materializeAll(store());
      await putDocs(store(), [
        summaryDoc('d1', {
          span: ['2025-03-01T23:30:00.000Z', '2025-03-02T00:30:00.000Z'],
          cwd: '/work/alpha',
          project: 'alpha',
        }),
        summaryDoc('d2', {
          span: ['2025-03-02T10:00:00.000Z', '2025-03-02T10:20:00.000Z'],
          cwd: '/work/beta',
          project: 'beta',
        }),
        chunkDoc('d1', [
          entry(0, 'user', 'late', { timestamp: '2025-03-01T23:40:00.000Z' }),
          entry(1, 'assistant', 'later', { timestamp: '2025-03-01T23:50:00.000Z' }),
          entry(2, 'user', 'after midnight', { timestamp: '2025-03-02T00:10:00.000Z' }),
        ]),
        chunkDoc('d2', [entry(0, 'user', 'morning', { timestamp: '2025-03-02T10:05:00.000Z' })]),
      ]);
      const half = 30 * 60_000;
      const all = await store().views.dailyActivity('2025-03-01', '2025-03-02', {});
      const d1 = (await store().docs.get('summary:d1'))!.activity;
      const d2 = (await store().docs.get('summary:d2'))!.activity;
      expect(all).toEqual([
        { day: '2025-03-01', sessionId: 'd1', project: 'alpha', activeMs: half, entries: 2, activity: d1 },
        { day: '2025-03-02', sessionId: 'd1', project: 'alpha', activeMs: half, entries: 1, activity: d1 },
        {
          day: '2025-03-02',
          sessionId: 'd2',
          project: 'beta',
          activeMs: 20 * 60_000,
          entries: 1,
          activity: d2,
        },
      ]);
      expect(await store().views.dailyActivity('2025-03-02', '2025-03-02', {})).toEqual(all.slice(1));
      expect(await store().views.dailyActivity('2025-03-02T05:00:00Z', '2025-03-09T00:00:00Z', {})).toEqual(
        all.slice(1),
      );
      expect(await store().views.dailyActivity('2025-03-01', '2025-03-31', { cwd: '/work/beta' })).toEqual([
        all[2],
      ]);
      expect(await store().views.dailyActivity('2025-03-01', '2025-03-31', { project: 'beta' })).toEqual([
        all[2],
      ]);
      expect(await store().views.dailyActivity('2025-04-01', '2025-04-30', {})).toEqual([]);
    });
  });
}
