/**
 * The outbox: when the API does not answer, the hook appends its record (the event document,
 * built once, and which transcript to ship) to `outbox.ndjson`, fsynced; the next successful hook
 * call and the server (at start and periodically) replay it in order. Nothing is lost and nothing
 * duplicated: a record's document is re-sent byte for byte (same id, so `unchanged` if it already
 * arrived) and a transcript is shipped from the ingest cursor on, whatever was shipped before.
 *
 * Files in the spool dir:
 * - `outbox.ndjson` — appends. Each record is one `write()` followed by fsync. A replay first
 *   renames it away; a writer then checks that the file it wrote to is still `outbox.ndjson` and,
 *   if not, appends the record again (a duplicate at worst, which is harmless; never a loss).
 * - `replay-<ms>-<pid>.ndjson` — renamed outboxes, replayed oldest first, with `.done` beside
 *   each holding how many bytes are delivered (so a crash mid-replay resumes, not restarts).
 * - `overflow.json` — the bound. When the spool holds `maxBytes`, events are no longer stored one
 *   by one: each session keeps a count of dropped events (by name, first and last time) and its
 *   transcript path. On replay that becomes one `transcripts:SpoolOverflow` event on the session
 *   and its transcript is shipped as usual — the transcript, the real record, is never dropped.
 * - `rejected.ndjson` — records the API refused for good (a 4xx other than 401/403, which wait
 *   for the token to be fixed; a corrupt line), kept for
 *   inspection (rotated at 4 MiB) so one bad record cannot block the ones behind it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { appendFile, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs } from '../config/make-dirs.js';
import { docIds } from '../core/doc-ids.js';
import type { EventDoc } from '../core/documents.js';
import { acquireLock } from './file-lock.js';
import { errorMessage, isTransient, type LiveSender } from './sender.js';
import type { TranscriptTarget } from './ship-transcript.js';

export const OUTBOX = 'outbox.ndjson';
const OVERFLOW = 'overflow.json';
const OVERFLOW_REPLAY = 'overflow-replay.json';
const REJECTED = 'rejected.ndjson';
const REJECTED_MAX = 4 * 1024 * 1024;
const REPLAY_FILE = /^replay-\d+-\d+\.ndjson$/;
/** Default bound of the outbox (records are small: an event document is at most ~10 KB). */
export const DEFAULT_SPOOL_MAX_BYTES = 64 * 1024 * 1024;
/** Records delivered per request when replaying. */
const BATCH = 100;

export interface SpoolRecord {
  v: 1;
  /** When it was spooled (system clock). */
  at: string;
  sessionId: string;
  /** The event, or null for a record that only asks for the transcript to be shipped. */
  doc: EventDoc | null;
  /** The transcript to ship, with its size when the hook ran (the file itself holds the bytes). */
  transcript: { path: string; size: number | null } | null;
  /** Why it was spooled, in words. */
  reason?: string;
}

export interface SpoolConfig {
  dir: string;
  /** The replay lock (`livePaths(…).spoolLock`). */
  lockPath: string;
  maxBytes: number;
  log: (line: string) => void;
}

interface OverflowEntry {
  dropped: number;
  firstAt: string;
  lastAt: string;
  events: Record<string, number>;
  transcriptPath: string | null;
}

interface OverflowFile {
  v: 1;
  sessions: Record<string, OverflowEntry>;
}

/** Whether anything waits in the spool (a cheap, synchronous look: the hook asks on every call). */
export function spoolPending(dir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some(
    (n) =>
      REPLAY_FILE.test(n) ||
      n === OVERFLOW ||
      n === OVERFLOW_REPLAY ||
      (n === OUTBOX && statSync(join(dir, n), { throwIfNoEntry: false })?.size !== 0),
  );
}

async function spoolBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name !== OUTBOX && !REPLAY_FILE.test(name)) continue;
    total += (await stat(join(dir, name)).catch(() => null))?.size ?? 0;
  }
  return total;
}

export type AppendOutcome =
  { status: 'spooled' } | { status: 'overflow'; spoolBytes: number } | { status: 'lost'; why: string };

/** Appends a record (fsynced). At the bound, counts it in `overflow.json` instead (see above). */
export async function appendToSpool(cfg: SpoolConfig, record: SpoolRecord): Promise<AppendOutcome> {
  await makeDirs(cfg.dir);
  const line = `${JSON.stringify(record)}\n`;
  const held = await spoolBytes(cfg.dir);
  if (held + Buffer.byteLength(line) > cfg.maxBytes) return overflow(cfg, record, held);
  const path = join(cfg.dir, OUTBOX);
  for (let attempt = 0; attempt < 5; attempt++) {
    const fh = await open(path, 'a');
    let ino: number;
    let dev: number;
    try {
      await fh.write(line);
      await fh.sync();
      ({ ino, dev } = await fh.stat());
    } finally {
      await fh.close();
    }
    // Renamed away by a replay meanwhile? Then it may have been read before our write: again.
    const now = await stat(path).catch(() => null);
    if (now && now.ino === ino && now.dev === dev) return { status: 'spooled' };
  }
  return { status: 'lost', why: 'the outbox kept being replaced while appending' };
}

async function overflow(cfg: SpoolConfig, record: SpoolRecord, held: number): Promise<AppendOutcome> {
  const lock = await acquireLock(cfg.lockPath, { waitMs: 2000 });
  if (!lock)
    return {
      status: 'lost',
      why: `the spool is full (${held} bytes) and busy: the event was dropped uncounted`,
    };
  try {
    const path = join(cfg.dir, OVERFLOW);
    const file = await readJson<OverflowFile>(path);
    const sessions = file?.v === 1 ? file.sessions : {};
    const e = (sessions[record.sessionId] ??= {
      dropped: 0,
      firstAt: record.doc?.timestamp ?? record.at,
      lastAt: record.doc?.timestamp ?? record.at,
      events: {},
      transcriptPath: null,
    });
    if (record.doc) {
      e.dropped++;
      e.events[record.doc.event] = (e.events[record.doc.event] ?? 0) + 1;
      if (record.doc.timestamp < e.firstAt) e.firstAt = record.doc.timestamp;
      if (record.doc.timestamp > e.lastAt) e.lastAt = record.doc.timestamp;
    }
    if (record.transcript) e.transcriptPath = record.transcript.path;
    await writeDurably(path, JSON.stringify({ v: 1, sessions } satisfies OverflowFile));
    cfg.log(
      `spool full (${held} of ${cfg.maxBytes} bytes): ${record.doc ? `dropped ${record.doc.event}` : 'transcript request'} ` +
        `of session ${record.sessionId} (counted; its transcript is still shipped on replay)`,
    );
    return { status: 'overflow', spoolBytes: held };
  } finally {
    await lock.release();
  }
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

async function writeDurably(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
}

/** The event a session gets for the events the full spool could not keep. */
export function overflowEventDoc(sessionId: string, e: OverflowEntry, hostname: string): EventDoc {
  const hash = createHash('sha1')
    .update(`overflow\0${e.firstAt}\0${e.lastAt}\0${e.dropped}`)
    .digest('hex')
    .slice(0, 12);
  return {
    _id: docIds.event(sessionId, e.lastAt, hash),
    type: 'event',
    sessionId,
    timestamp: e.lastAt,
    event: 'transcripts:SpoolOverflow',
    hostname,
    preview: `${e.dropped} hook event(s) dropped while the spool was full`,
    data: { dropped: e.dropped, firstAt: e.firstAt, lastAt: e.lastAt, events: e.events },
  };
}

export interface DeliverResult {
  events: number;
  sessions: number;
  bytesShipped: number;
  rejected: Array<{ record: SpoolRecord; error: string }>;
  conflicts: string[];
}

/** Ship is busy (another ingester holds the session) for longer than we wait: try later. */
export class SessionBusyError extends Error {
  override name = 'SessionBusyError';
}

/**
 * Delivers records: their events in one request, then each session's transcript once. A transient
 * failure throws (the caller spools or stops replaying); a permanent one rejects only the records
 * it concerns.
 */
export async function deliverRecords(
  sender: LiveSender,
  records: SpoolRecord[],
  options: { shipWaitMs: number; log: (line: string) => void },
): Promise<DeliverResult> {
  const out: DeliverResult = { events: 0, sessions: 0, bytesShipped: 0, rejected: [], conflicts: [] };
  const withDocs = records.filter((r) => r.doc);
  const send = async (batch: SpoolRecord[]) => {
    const r = await sender.sendEvents(batch.map((x) => x.doc!));
    out.events += batch.length;
    out.conflicts.push(...r.conflicts);
  };
  const sendAll = async () => {
    try {
      await send(withDocs);
    } catch (err) {
      if (isTransient(err)) throw err;
      // One refused document fails the request: find it, keep the others.
      for (const rec of withDocs) {
        try {
          await send([rec]);
        } catch (e) {
          if (isTransient(e)) throw e;
          out.rejected.push({ record: rec, error: errorMessage(e) });
        }
      }
    }
    for (const c of out.conflicts) options.log(`event conflict (kept the stored one): ${c}`);
  };

  const targets = new Map<string, TranscriptTarget>();
  for (const r of records)
    if (r.transcript) targets.set(r.sessionId, { sessionId: r.sessionId, path: r.transcript.path });
  const shipAll = async () => {
    for (const target of targets.values()) {
      let outcome;
      try {
        outcome = await sender.shipTranscript(target, options.shipWaitMs);
      } catch (err) {
        if (isTransient(err)) throw err;
        options.log(
          `transcript of session ${target.sessionId} (${target.path}) not shipped: ${errorMessage(err)}`,
        );
        continue;
      }
      if (outcome.status === 'busy')
        throw new SessionBusyError(`session ${target.sessionId} is being ingested by another process`);
      if (outcome.status === 'shipped') {
        out.sessions++;
        out.bytesShipped += outcome.result.bytesRead;
      }
    }
  };
  // Events and transcripts are independent documents: deliver both at once (a hook waits on this).
  const [a, b] = await Promise.allSettled([sendAll(), shipAll()]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return out;
}

export interface ReplayResult {
  /** Another process is replaying. */
  busy: boolean;
  records: number;
  events: number;
  sessions: number;
  rejected: number;
  /** Sessions whose dropped events were summarised. */
  overflowSessions: number;
  /** Why it stopped early (the API went away); what is left stays spooled. */
  failed: string | null;
}

export interface ReplayOptions {
  /** How long to wait for another replay to finish (0: skip when busy). */
  lockWaitMs?: number;
  /** How long to wait for another ingester of a session. */
  shipWaitMs?: number;
  hostname: string;
}

/** Replays everything spooled, oldest first. Never throws for delivery problems: see `failed`. */
export async function replaySpool(
  cfg: SpoolConfig,
  sender: LiveSender,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const result: ReplayResult = {
    busy: false,
    records: 0,
    events: 0,
    sessions: 0,
    rejected: 0,
    overflowSessions: 0,
    failed: null,
  };
  if (!spoolPending(cfg.dir)) return result;
  const lock = await acquireLock(cfg.lockPath, { waitMs: options.lockWaitMs ?? 0 });
  if (!lock) return { ...result, busy: true };
  const deliver = (records: SpoolRecord[]) =>
    deliverRecords(sender, records, { shipWaitMs: options.shipWaitMs ?? 10_000, log: cfg.log });
  try {
    // Nothing is renamed or touched while the destination is away: the spool stays as it is.
    await sender.probe();
    // Older replay files first; the outbox is snapshotted only when none is left, so an outage
    // leaves one file, not one per hook call. New appends during the replay get a second pass.
    const outbox = join(cfg.dir, OUTBOX);
    for (let pass = 0; pass < 3; pass++) {
      let files = (await readdir(cfg.dir)).filter((n) => REPLAY_FILE.test(n)).sort();
      if (files.length === 0) {
        if (((await stat(outbox).catch(() => null))?.size ?? 0) === 0) break;
        const name = `replay-${String(Date.now()).padStart(15, '0')}-${process.pid}.ndjson`;
        await rename(outbox, join(cfg.dir, name));
        files = [name];
      }
      for (const name of files) await replayFile(cfg, join(cfg.dir, name), deliver, result);
    }

    // Dropped events, summarised per session; the transcript is shipped like any other.
    const pending = join(cfg.dir, OVERFLOW_REPLAY);
    if (!(await stat(pending).catch(() => null)))
      await rename(join(cfg.dir, OVERFLOW), pending).catch(() => undefined);
    const over = await readJson<OverflowFile>(pending);
    if (over?.v === 1) {
      for (const [sessionId, e] of Object.entries(over.sessions)) {
        const doc = e.dropped > 0 ? overflowEventDoc(sessionId, e, options.hostname) : null;
        const transcript = e.transcriptPath ? { path: e.transcriptPath, size: null } : null;
        const r = await deliver([{ v: 1, at: e.lastAt, sessionId, doc, transcript }]);
        result.events += r.events;
        result.sessions += r.sessions;
        result.overflowSessions++;
        cfg.log(
          `replay: session ${sessionId}: ${e.dropped} event(s) had been dropped while the spool was full (${e.firstAt} … ${e.lastAt})`,
        );
      }
    }
    await rm(pending, { force: true });
  } catch (err) {
    if (!isTransient(err) && !(err instanceof SessionBusyError)) throw err;
    result.failed = errorMessage(err);
  } finally {
    await lock.release();
  }
  return result;
}

async function replayFile(
  cfg: SpoolConfig,
  path: string,
  deliver: (records: SpoolRecord[]) => Promise<DeliverResult>,
  result: ReplayResult,
): Promise<void> {
  const progressPath = `${path}.done`;
  const buf = await readFile(path);
  let offset = Number((await readFile(progressPath, 'utf8').catch(() => '0')).trim()) || 0;
  while (offset < buf.length) {
    const batch: SpoolRecord[] = [];
    let end = offset;
    while (end < buf.length && batch.length < BATCH) {
      const nl = buf.indexOf(0x0a, end);
      if (nl < 0) {
        // A writer died mid-write (records are written whole, then fsynced): keep it for a look.
        await reject(cfg, buf.subarray(end).toString('utf8'), 'incomplete line (a writer was interrupted)');
        end = buf.length;
        break;
      }
      const text = buf.subarray(end, nl).toString('utf8');
      end = nl + 1;
      if (!text.trim()) continue;
      try {
        const rec = JSON.parse(text) as SpoolRecord;
        if (rec?.v !== 1 || typeof rec.sessionId !== 'string') throw new Error('not a spool record');
        batch.push(rec);
      } catch (err) {
        await reject(cfg, text, `unreadable spool line: ${errorMessage(err)}`);
      }
    }
    if (batch.length) {
      const r = await deliver(batch);
      result.records += batch.length;
      result.events += r.events;
      result.sessions += r.sessions;
      for (const x of r.rejected) {
        result.rejected++;
        await reject(cfg, JSON.stringify(x.record), x.error);
      }
    }
    offset = end;
    await writeDurably(progressPath, String(offset));
  }
  await unlink(path);
  await rm(progressPath, { force: true });
}

/** Keeps a record the API refused for good in `rejected.ndjson`, and says so. */
export function rejectRecord(cfg: SpoolConfig, record: SpoolRecord, error: string): Promise<void> {
  return reject(cfg, JSON.stringify(record), error);
}

async function reject(cfg: SpoolConfig, line: string, error: string): Promise<void> {
  await makeDirs(cfg.dir);
  const path = join(cfg.dir, REJECTED);
  const size = (await stat(path).catch(() => null))?.size ?? 0;
  if (size > REJECTED_MAX) await rename(path, `${path}.1`).catch(() => undefined);
  await appendFile(
    path,
    `${JSON.stringify({ at: new Date().toISOString(), error, line: line.slice(0, 64 * 1024) })}\n`,
  );
  cfg.log(`spool: rejected a record for good: ${error}`);
}

export interface SpoolStatus {
  bytes: number;
  records: number;
  files: number;
  overflow: { sessions: number; dropped: number } | null;
  rejected: number;
}

/** What waits in the spool, for `hooks status`. */
export async function spoolStatus(dir: string): Promise<SpoolStatus> {
  const out: SpoolStatus = { bytes: 0, records: 0, files: 0, overflow: null, rejected: 0 };
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    if (name === OUTBOX || REPLAY_FILE.test(name)) {
      const buf = await readFile(path).catch(() => Buffer.alloc(0));
      const done = REPLAY_FILE.test(name)
        ? Number(await readFile(`${path}.done`, 'utf8').catch(() => '0')) || 0
        : 0;
      out.files++;
      out.bytes += buf.length - done;
      for (let i = buf.indexOf(0x0a, done); i >= 0; i = buf.indexOf(0x0a, i + 1)) out.records++;
    } else if (name === OVERFLOW || name === OVERFLOW_REPLAY) {
      const f = await readJson<OverflowFile>(path);
      const entries = Object.values(f?.sessions ?? {});
      out.overflow = {
        sessions: (out.overflow?.sessions ?? 0) + entries.length,
        dropped: (out.overflow?.dropped ?? 0) + entries.reduce((s, e) => s + e.dropped, 0),
      };
    } else if (name === REJECTED) {
      const buf = await readFile(path).catch(() => Buffer.alloc(0));
      for (let i = buf.indexOf(0x0a); i >= 0; i = buf.indexOf(0x0a, i + 1)) out.rejected++;
    }
  }
  return out;
}

/** The least `CT_SPOOL_MAX_BYTES`: room for one record with its transcript note. */
export const MIN_SPOOL_MAX_BYTES = 4096;

/**
 * `CT_SPOOL_MAX_BYTES`: the default when unset, raised to the minimum when below it; null when it
 * is not a whole number of bytes (serve refuses to start; the hook, which must never fail, uses
 * `spoolMaxBytes`).
 */
export function parseSpoolMaxBytes(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return DEFAULT_SPOOL_MAX_BYTES;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? Math.max(MIN_SPOOL_MAX_BYTES, n) : null;
}

/** `CT_SPOOL_MAX_BYTES` as the hook reads it: nonsense falls back to the default. */
export function spoolMaxBytes(value: string | undefined): number {
  return parseSpoolMaxBytes(value) ?? DEFAULT_SPOOL_MAX_BYTES;
}

export { writeDurably };
