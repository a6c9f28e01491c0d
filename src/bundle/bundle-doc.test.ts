import { describe, expect, it } from 'vitest';
import { parseEventId } from '../core/doc-ids.js';
import { canonicalJson, contentHash } from '../core/revision.js';
import { bundleLinePieces, checkBundleDoc, isBundledId, objectNamesOf, planDoc } from './bundle-doc.js';
import { ndjsonLine } from './ndjson.js';
import { SessionActivity, sessionDocRanges } from './selection.js';

const event = {
  _id: 'event:s1:2026-01-01T00:00:00.000Z:abc',
  type: 'event',
  sessionId: 's1',
  timestamp: '2026-01-01T00:00:00.000Z',
  event: 'Stop',
};
const chunk = {
  _id: 'chunk:s1:transcript.jsonl:000000000000',
  type: 'chunk',
  sessionId: 's1',
  timestamp: '2026-01-01T00:00:00.000Z',
  file: 'transcript.jsonl',
  byteStart: 0,
  byteEnd: 10,
  firstIndex: 0,
  entryCount: 1,
  extra: { kept: true },
};

describe('bundle documents', () => {
  it('leaves design, local and other underscored documents out', () => {
    expect(isBundledId('_design/full-text')).toBe(false);
    expect(isBundledId('_local/cursor')).toBe(false);
    expect(isBundledId('summary:s1')).toBe(true);
  });

  it('accepts a valid line and returns the original object (unknown fields kept)', () => {
    const r = checkBundleDoc(chunk);
    expect(r).toEqual({ ok: true, doc: chunk });
  });

  it('refuses lines that are not session documents, naming why', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[1, 2], /not a JSON object/],
      [{ type: 'event' }, /_id/],
      [{ ...event, _id: '_design/x' }, /design or instance-local/],
      [{ ...event, _rev: '1-a' }, /_rev/],
      [{ ...event, timestamp: 'yesterday' }, /timestamp/],
      [
        { ...chunk, _id: 'chunk:s1:transcript.jsonl:000000000001' },
        /must be chunk:s1:transcript.jsonl:000000000000/,
      ],
      [{ ...event, _id: 'event:s2:x:y' }, /must start with event:s1:/],
      [{ ...chunk, file: '../../etc/passwd', _id: 'chunk:s1:../../etc/passwd:000000000000' }, /file/],
      [{ ...event, sessionId: 'a/b', _id: 'event:a/b:x:y' }, /sessionId/],
    ];
    for (const [value, why] of cases) {
      const r = checkBundleDoc(value);
      expect(r.ok, JSON.stringify(value)).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(why);
    }
  });

  it('plans new, unchanged and conflicting writes from the current revision', () => {
    expect(planDoc(event, undefined)).toBe('new');
    expect(planDoc(event, `4-${contentHash(event)}`)).toBe('unchanged');
    expect(planDoc(event, `1-${contentHash({ ...event, event: 'Other' })}`)).toBe('conflict');
  });

  it('lists the objects a document refers to', () => {
    expect(objectNamesOf(chunk)).toEqual(['transcript.jsonl']);
    expect(
      objectNamesOf({
        type: 'summary',
        files: [{ name: 'transcript.jsonl' }, { name: 'subagents/a.jsonl' }],
      }),
    ).toEqual(['transcript.jsonl', 'subagents/a.jsonl']);
    expect(objectNamesOf(event)).toEqual([]);
  });
});

describe('session selection', () => {
  it('parses event ids (timestamps hold colons)', () => {
    expect(parseEventId('event:s1:2026-01-01T10:20:30.000Z:abc')).toEqual({
      sessionId: 's1',
      timestamp: '2026-01-01T10:20:30.000Z',
    });
    expect(parseEventId('summary:s1')).toBeNull();
    expect(parseEventId('event:broken')).toBeNull();
  });

  it('takes whole sessions active at or after the time, from summaries and events', () => {
    const a = new SessionActivity();
    a.noteSummary({ sessionId: 'old', lastActivity: '2025-01-01T00:00:00.000Z' });
    a.noteSummary({ sessionId: 'edge', lastActivity: '2026-01-01T00:00:00.000Z' });
    a.noteSummary({ sessionId: 'late-event', lastActivity: '2025-06-01T00:00:00.000Z' });
    a.noteEventId('event:late-event:2026-02-01T00:00:00.000Z:h');
    a.noteEventId('event:events-only:2026-03-01T00:00:00.000Z:h');
    a.noteSummary({ sessionId: 'no-activity', lastActivity: null });
    expect(a.activeSince(Date.parse('2026-01-01T00:00:00.000Z'))).toEqual([
      'edge',
      'events-only',
      'late-event',
    ]);
  });

  it('covers every document of one session and no other session', () => {
    const ranges = sessionDocRanges('s1');
    const inRange = (id: string) => ranges.some((r) => id >= r.startkey && id <= r.endkey);
    expect(inRange('chunk:s1:transcript.jsonl:000000000000')).toBe(true);
    expect(inRange('chunk:s1:subagents/a.jsonl:000000000100')).toBe(true);
    expect(inRange('event:s1:2026-01-01T00:00:00.000Z:h')).toBe(true);
    expect(inRange('summary:s1')).toBe(true);
    expect(inRange('annotation:s1')).toBe(true);
    expect(inRange('tombstone:s1')).toBe(true);
    expect(inRange('annotation:s10')).toBe(false);
    expect(inRange('tombstone:s10')).toBe(false);
    expect(inRange('summary:s10')).toBe(false);
    expect(inRange('chunk:s10:transcript.jsonl:000000000000')).toBe(false);
    expect(inRange('event:s1x:2026:h')).toBe(false);
  });
});

describe('bundleLinePieces', () => {
  const bundleLine = (id: string, body: string) =>
    Buffer.concat(bundleLinePieces(id, Buffer.from(body))).toString();

  it('builds from the stored body the very line that serialising the document gives', () => {
    const content = { entries: [{ text: 'é "q"\n' }], sessionId: 's', type: 'chunk', z: null };
    const body = canonicalJson(content);
    expect(bundleLine('chunk:s:t.jsonl:000000000000', body)).toBe(
      ndjsonLine({ _id: 'chunk:s:t.jsonl:000000000000', ...content }),
    );
    expect(bundleLine('x', '{}')).toBe('{"_id":"x"}\n');
    // What import reads back is the document without its revision marker, and nothing else.
    const { _id, ...rest } = event;
    expect(JSON.parse(bundleLine(_id, canonicalJson(rest)))).toEqual(event);
  });
});
