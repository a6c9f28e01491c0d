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
import { markdownHeader, markdownPieces, renderEntry } from './markdown.js';
import { toSession } from './session-view.js';

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
    const whole = `${[...markdownHeader(session), ...entries.flatMap(renderEntry)].join('\n').trimEnd()}\n`;
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(whole);
  });
});
