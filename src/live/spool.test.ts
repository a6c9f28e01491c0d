import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventDoc } from '../core/documents.js';
import { storeSink } from '../ingest/sink.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/contract.js';
import { livePaths } from './live-paths.js';
import { createSender, type LiveSender } from './sender.js';
import {
  appendToSpool,
  OUTBOX,
  parseSpoolMaxBytes,
  replaySpool,
  spoolPending,
  spoolMaxBytes,
  spoolStatus,
  type SpoolConfig,
  type SpoolRecord,
} from './spool.js';

let dir: string;
let store: Store;
let sender: LiveSender;
let cfg: SpoolConfig;
let logs: string[];

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ct-spool-'));
  store = await openStore({ dataDir: path.join(dir, 'data') });
  const paths = livePaths(path.join(dir, 'data'));
  sender = createSender({
    sink: storeSink(store),
    writeDocs: (d) => store.docs.commit(d, []),
    hostname: 'box',
    paths,
  });
  logs = [];
  cfg = { dir: paths.spoolDir, lockPath: paths.spoolLock, maxBytes: 1024 * 1024, log: (l) => logs.push(l) };
});

afterEach(async () => {
  await store.close();
});

const at = (i: number) => new Date(Date.UTC(2025, 6, 1, 10, 0, i)).toISOString();
function record(i: number, transcript: string | null = null): SpoolRecord {
  const doc: EventDoc = {
    _id: `event:s1:${at(i)}:${String(i).padStart(12, '0')}`,
    type: 'event',
    sessionId: 's1',
    timestamp: at(i),
    event: 'Stop',
  };
  return {
    v: 1,
    at: at(i),
    sessionId: 's1',
    doc,
    transcript: transcript ? { path: transcript, size: null } : null,
  };
}

/** Event ids in the order the store received them. */
async function written(): Promise<string[]> {
  return (await store.docs.changes(0)).results.filter((c) => c.id.startsWith('event:')).map((c) => c.id);
}

describe('spool', () => {
  it('replays what was appended, in order, once, and then is empty', async () => {
    for (let i = 0; i < 5; i++) expect(await appendToSpool(cfg, record(i))).toEqual({ status: 'spooled' });
    expect(spoolPending(cfg.dir)).toBe(true);
    expect((await spoolStatus(cfg.dir)).records).toBe(5);
    const r = await replaySpool(cfg, sender, { hostname: 'box' });
    expect(r).toMatchObject({ busy: false, records: 5, events: 5, failed: null });
    expect(await written()).toEqual([0, 1, 2, 3, 4].map((i) => record(i).doc!._id));
    expect(spoolPending(cfg.dir)).toBe(false);
    // Replaying the same records again (a crash before the file was removed) writes nothing new.
    for (let i = 0; i < 5; i++) await appendToSpool(cfg, record(i));
    await replaySpool(cfg, sender, { hostname: 'box' });
    expect((await store.docs.changes(0)).results.filter((c) => c.id.startsWith('event:'))).toHaveLength(5);
  });

  it('resumes an interrupted replay where it stopped, and keeps unreadable lines aside', async () => {
    mkdirSync(cfg.dir, { recursive: true });
    const file = path.join(cfg.dir, 'replay-000000000000001-1.ndjson');
    const lines = [0, 1, 2].map((i) => `${JSON.stringify(record(i))}\n`);
    writeFileSync(
      file,
      lines.join('') + 'garbage that is not a record\n' + JSON.stringify(record(3)).slice(0, 30),
    );
    writeFileSync(`${file}.done`, String(Buffer.byteLength(lines[0]!)));
    await appendToSpool(cfg, record(4));
    const r = await replaySpool(cfg, sender, { hostname: 'box' });
    expect(r.records).toBe(3);
    expect(await written()).toEqual([1, 2, 4].map((i) => record(i).doc!._id));
    const rejected = readFileSync(path.join(cfg.dir, 'rejected.ndjson'), 'utf8').trim().split('\n');
    expect(rejected).toHaveLength(2);
    expect(rejected[1]).toMatch(/incomplete line/);
    expect(readdirSync(cfg.dir).filter((n) => n.startsWith('replay-') || n === OUTBOX)).toEqual([]);
  });

  it('at its bound counts per session instead of storing, and replays that as one event', async () => {
    const transcript = path.join(dir, 'p', 's1.jsonl');
    mkdirSync(path.dirname(transcript), { recursive: true });
    appendFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', sessionId: 's1', timestamp: at(0), message: { role: 'user', content: 'hi' } })}\n`,
    );
    const small = { ...cfg, maxBytes: 4096 };
    const outcomes = [];
    for (let i = 0; i < 20; i++) outcomes.push((await appendToSpool(small, record(i, transcript))).status);
    const kept = outcomes.filter((o) => o === 'spooled').length;
    expect(kept).toBeGreaterThan(0);
    expect(outcomes.slice(kept).every((o) => o === 'overflow')).toBe(true);
    expect(logs[0]).toMatch(/spool full \(\d+ of 4096 bytes\): dropped Stop of session s1/);
    expect(statSize(path.join(cfg.dir, OUTBOX))).toBeLessThanOrEqual(4096);
    expect((await spoolStatus(cfg.dir)).overflow).toEqual({ sessions: 1, dropped: 20 - kept });

    const r = await replaySpool(small, sender, { hostname: 'box' });
    expect(r).toMatchObject({ records: kept, overflowSessions: 1, failed: null });
    const docs = await store.docs.allDocs({ startkey: 'event:', endkey: 'event:\uffff', includeDocs: true });
    const overflow = docs.rows.map((x) => x.doc!).filter((d) => d.event === 'transcripts:SpoolOverflow');
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatchObject({
      timestamp: at(19),
      data: { dropped: 20 - kept, firstAt: at(kept), lastAt: at(19) },
    });
    expect(await store.docs.get('summary:s1')).not.toBeNull();
    expect(spoolPending(cfg.dir)).toBe(false);
  });

  it('leaves everything in place while the destination is away', async () => {
    const { ApiClient } = await import('../client/api-client.js');
    const { httpSink } = await import('../client/http-sink.js');
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:1' });
    const away = createSender({
      sink: httpSink(client),
      writeDocs: async (d) => (await client.ingestDocs(d)).results,
      probe: async () => void (await client.getRevs([])),
      hostname: 'box',
      paths: livePaths(path.join(dir, 'data')),
    });
    await appendToSpool(cfg, record(0));
    const r = await replaySpool(cfg, away, { hostname: 'box' });
    expect(r.failed).toMatch(/cannot reach the transcripts API/);
    expect(existsSync(path.join(cfg.dir, OUTBOX))).toBe(true);
    expect((await spoolStatus(cfg.dir)).records).toBe(1);
  });
});

function statSize(file: string): number {
  return readFileSync(file).length;
}

describe('CT_SPOOL_MAX_BYTES', () => {
  it('raises a value below the minimum to it, and says when it is no number of bytes', () => {
    expect(parseSpoolMaxBytes(undefined)).toBe(64 * 1024 * 1024);
    expect(parseSpoolMaxBytes(' ')).toBe(64 * 1024 * 1024);
    expect(parseSpoolMaxBytes('1000000')).toBe(1_000_000);
    expect(parseSpoolMaxBytes('4000')).toBe(4096);
    for (const bad of ['abc', '1.5', '-1', '1e400']) expect(parseSpoolMaxBytes(bad), bad).toBeNull();
    // The hook never fails over a setting: nonsense is the default there.
    expect(spoolMaxBytes('abc')).toBe(64 * 1024 * 1024);
    expect(spoolMaxBytes('4000')).toBe(4096);
  });
});
