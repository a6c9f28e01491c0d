/**
 * An export taken while the source is being written to never splits a session: the documents it
 * sends all come from one moment. Here a session's summary changes while `GET
 * /api/store/docs.ndjson` is part-way (after its first page, with some 40 MB of documents between
 * that page and the summaries, far more than the connection buffers): the response still holds the
 * summary as it was when the response began.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, sendJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';

let a: TestServer;

beforeAll(async () => {
  a = await startTestServer({ corpus: testEngine('sqlite') });
  // Padding: events of another session, which come before every summary in id order.
  const pad = 'x'.repeat(1024 * 1024);
  for (let batch = 0; batch < 10; batch++) {
    const docs = Array.from({ length: 4 }, (_, i) => {
      const n = String(batch * 4 + i).padStart(2, '0');
      return {
        _id: `event:padding:2025-01-01T00:00:${n}.000Z:${n}`,
        type: 'event',
        sessionId: 'padding',
        timestamp: `2025-01-01T00:00:${n}.000Z`,
        event: 'Padding',
        data: { pad },
      };
    });
    const r = await sendJson(a, 'POST', '/api/ingest/docs', { docs, deferSearch: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await a?.stop();
});

describe('export while the source is written to', () => {
  it('docs.ndjson holds every document as it was when the response began', async () => {
    const before = (await getJson(a, '/api/store/docs/summary:chat')).body;
    const res = await fetch(`${a.url}/api/store/docs.ndjson`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value!);

    // The session changes while the response is part-way.
    const { _rev, ...summary } = before;
    const changed = await sendJson(a, 'POST', '/api/ingest/docs', {
      docs: [{ ...summary, _rev, title: 'changed during the export' }],
    });
    expect(changed.body.results[0].status).toBe('written');

    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks.push(next.value);
    }
    const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
    const line = lines.find((l) => l.startsWith('{"_id":"summary:chat"'));
    expect(JSON.parse(line!).title).toBe(before.title);
    expect(lines.filter((l) => l.startsWith('{"_id":"event:padding:'))).toHaveLength(40);

    // A response begun afterwards has the new version.
    const after = await (await fetch(`${a.url}/api/store/docs.ndjson?session=chat`)).text();
    const summaries = after.split('\n').filter((l) => l.startsWith('{"_id":"summary:'));
    expect(summaries.map((l) => JSON.parse(l).title)).toEqual(['changed during the export']);
  }, 120_000);
});
