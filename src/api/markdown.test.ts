import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../config/settings.js';
import type { ProjectedEntry } from '../core/documents.js';
import type { Store } from '../store/contract.js';
import { chunkDoc, entry, putDocs, summaryDoc } from '../store/contract/view-fixtures.js';
import { materializeAll } from '../store/contract/views-sessions.case.js';
import { openStore } from '../store/open-store.js';
import { getJson } from '../../test/support/api-server.js';
import { openTestApp, type TestApp } from '../../test/support/api-app.js';
import { testEngine } from '../../test/support/engines.js';
import { entryRenderer, markdownHeader, markdownPieces } from './markdown.js';
import { toSession } from './session-view.js';
import { HISTORY_EXPORT, POMODORO } from '../../test/support/corpus-sessions.js';

let dir: string;
let store: Store;
const SESSION = 'md-session';
// 2,345 entries: three pages of the transcript view, with whitespace at the page edges.
const entries: ProjectedEntry[] = Array.from({ length: 2345 }, (_, i) =>
  i % 3 === 2
    ? entry(i, 'assistant', i % 7 === 0 ? '   ' : `reply ${i}\n\n`, {
        toolUses: [{ id: `t${i}`, name: 'Read', input: { path: `/f${i}` } }],
      })
    : entry(i, i % 3 === 0 ? 'user' : 'assistant', `text ${i}  `),
);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-markdown-'));
  store = await openStore({ dataDir: dir, env: {} });
  await materializeAll(store);
  const chunks = [];
  for (let at = 0; at < entries.length; at += 200)
    chunks.push(chunkDoc(SESSION, entries.slice(at, at + 200)));
  await putDocs(store, [summaryDoc(SESSION), ...chunks]);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('markdownPieces', () => {
  it('streams, page by page, exactly the document built whole', async () => {
    const row = await store.views.getSession(SESSION);
    const session = toSession(row!, defaultSettings(), Date.now());
    const pieces: string[] = [];
    for await (const piece of markdownPieces(store, session)) pieces.push(piece);
    const render = entryRenderer();
    const whole = `${[...markdownHeader(session), ...entries.flatMap((e) => render(e))].join('\n').trimEnd()}\n`;
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(whole);
  });
});

describe('GET /api/sessions/{id}/markdown over the corpus', () => {
  const engine = testEngine('sqlite');
  let s: TestApp;
  beforeAll(async () => {
    s = await openTestApp(engine, { corpus: true });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await engine.stop();
  });

  const markdownOf = async (id: string) => (await s.fetch(`/api/sessions/${id}/markdown`)).text();

  /** Every entry of the session's main transcript, paged through the API. */
  async function entriesOf(id: string): Promise<ProjectedEntry[]> {
    const all: ProjectedEntry[] = [];
    for (;;) {
      const page = (await getJson(s, `/api/sessions/${id}/transcript?offset=${all.length}&limit=1000`)).body;
      all.push(...page.entries);
      if (page.entries.length === 0 || all.length >= page.total) return all;
    }
  }

  /** The conversation's sections in order: the speaker of each heading and the lines under it. */
  function sectionsOf(md: string): Array<{ speaker: string; lines: string[] }> {
    const sections: Array<{ speaker: string; lines: string[] }> = [];
    for (const line of md.slice(md.indexOf('\n---\n')).split('\n')) {
      const heading = /^### (You|Claude) · /.exec(line);
      if (heading) sections.push({ speaker: heading[1]!, lines: [] });
      else sections.at(-1)?.lines.push(line);
    }
    return sections;
  }

  it.each([
    '1b2c0332-e2dc-459f-88b9-1aad6e941e18',
    'fb4f7a6e-9d92-4292-8743-3a43a187bb1b',
    POMODORO,
    'edge_cases',
  ])("%s: every tool call comes under a Claude heading, in the transcript's order", async (id) => {
    const calls = (await entriesOf(id)).filter((e) => !e.isSidechain).flatMap((e) => e.toolUses ?? []);
    const shown = sectionsOf(await markdownOf(id)).flatMap((sec) =>
      sec.lines.flatMap((line) => {
        const call = /^> \*\*(.+?)\*\* `/.exec(line);
        return call ? [{ name: call[1], under: sec.speaker }] : [];
      }),
    );
    expect(shown.map((c) => c.name)).toEqual(calls.map((c) => c.name));
    expect(shown.filter((c) => c.under !== 'Claude')).toEqual([]);
  });

  it.each([
    'edge_cases',
    '37f83ec9-f2ea-42a9-925e-0d5c105cb6e8',
    '1b2c0332-e2dc-459f-88b9-1aad6e941e18',
    HISTORY_EXPORT,
    '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
    'cc1df109-4282-4321-8248-8bbcd471da78',
  ])('%s: the You sections are the user turns, word for word', async (id) => {
    const turns = (await getJson(s, `/api/sessions/${id}/turns?role=user&limit=1000`)).body.turns.filter(
      (t: { file: string }) => t.file === 'transcript.jsonl',
    );
    const you = sectionsOf(await markdownOf(id)).filter((sec) => sec.speaker === 'You');
    expect(you.map((sec) => sec.lines.join('\n').trim())).toEqual(turns.map((t: { text: string }) => t.text));
  });

  it("edge_cases: the failing tool call has a Claude heading of its own, at the assistant line's time", async () => {
    const md = await markdownOf('edge_cases');
    expect(md).toContain(
      '### Claude · 2025-06-14T11:01:30Z\n\n> **FailingTool** `{"test_param":"This tool will fail to demonstrate error handling"}`\n',
    );
  });
});
