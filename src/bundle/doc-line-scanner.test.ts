import { describe, expect, it } from 'vitest';
import { bundleLinePieces } from './bundle-doc.js';
import { DocLineScanner, type ScannedDoc } from './doc-line-scanner.js';
import { NdjsonError } from './ndjson.js';

const bundleLine = (id: string, body: string) =>
  Buffer.concat(bundleLinePieces(id, Buffer.from(body))).toString();

const summary = bundleLine(
  'summary:s1',
  JSON.stringify({
    files: [{ name: 'transcript.jsonl' }, { name: 'subagents/agent-a.jsonl' }],
    sessionId: 's1',
    type: 'summary',
  }),
);
const chunk = bundleLine(
  'chunk:s1:subagents/agent-a.jsonl:000000000123',
  JSON.stringify({ entries: [{ text: 'a "quoted"\nline' }], sessionId: 's1', type: 'chunk' }),
);
const event = bundleLine(
  'event:s2:2025-01-01T10:00:00.000Z:abc',
  JSON.stringify({ event: 'Stop', sessionId: 's2', type: 'event' }),
);

function scanAll(chunks: Array<string | Buffer>): ScannedDoc[] {
  const scanner = new DocLineScanner();
  const out: ScannedDoc[] = [];
  for (const c of chunks) scanner.push(Buffer.isBuffer(c) ? c : Buffer.from(c), (d) => out.push(d));
  scanner.end();
  return out;
}

describe('DocLineScanner', () => {
  const expected: ScannedDoc[] = [
    {
      id: 'summary:s1',
      type: 'summary',
      sessionId: 's1',
      objectNames: ['transcript.jsonl', 'subagents/agent-a.jsonl'],
    },
    {
      id: 'chunk:s1:subagents/agent-a.jsonl:000000000123',
      type: 'chunk',
      sessionId: 's1',
      objectNames: ['subagents/agent-a.jsonl'],
    },
    { id: 'event:s2:2025-01-01T10:00:00.000Z:abc', type: 'event', sessionId: 's2', objectNames: [] },
  ];

  it('reads id, type, session and objects of each line', () => {
    expect(scanAll([summary + chunk + event])).toEqual(expected);
  });

  it('gives the same answer however the bytes are split, even inside a UTF-8 character', () => {
    const bytes = Buffer.from(summary + chunk.replace('quoted', 'quötéd') + event);
    for (const size of [1, 2, 3, 7, 64]) {
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
      expect(scanAll(parts)).toEqual(expected);
    }
  });

  it('parses a line whose id has another shape, and decodes escaped ids', () => {
    const odd = bundleLine(
      'custom:"x"\\y',
      JSON.stringify({ files: [{ name: 'a.jsonl' }], sessionId: 's3', type: 'summary' }),
    );
    expect(scanAll([odd])).toEqual([
      { id: 'custom:"x"\\y', type: 'summary', sessionId: 's3', objectNames: ['a.jsonl'] },
    ]);
  });

  it('names the line that is not a session document or not JSON', () => {
    expect(() => scanAll([summary, '{"_id":"x","type":1}\n'])).toThrow(/line 2: not a session document/);
    expect(() => scanAll(['{"_id":"_design/x","type":"summary","sessionId":"s"}\n'])).toThrow(NdjsonError);
    expect(() => scanAll([summary + summary + 'nope\n'])).toThrow(/line 3: not valid JSON/);
  });

  it('refuses a stream that ends inside a line', () => {
    expect(() => scanAll([summary + chunk.slice(0, 40)])).toThrow(/line 2: arrived without its newline/);
  });
});
