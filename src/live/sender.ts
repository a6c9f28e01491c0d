/**
 * Where live recording delivers: event documents and transcript bytes, either through the HTTP
 * API (the hook) or straight into the store (the server replaying the spool). One interface, so
 * delivery and spool replay are written once.
 */
import type { SecretPattern } from '../secrets/scan.js';
import type { EventDoc } from '../core/documents.js';
import type { IngestSink } from '../ingest/sink.js';
import type { DocInput, WriteResult } from '../store/contract.js';
import type { LivePaths } from './live-paths.js';
import { shipTranscript, type ShipOutcome, type TranscriptTarget } from './ship-transcript.js';

export interface LiveSender {
  /** Throws when the destination cannot take writes now (a cheap request), so a replay can skip. */
  probe(): Promise<void>;
  /** Writes event documents (idempotent: an identical document is `unchanged`). */
  sendEvents(docs: EventDoc[]): Promise<{ written: number; unchanged: number; conflicts: string[] }>;
  /** Ingests what was appended to a session's transcript files, waiting up to `lockWaitMs` for its lock. */
  shipTranscript(target: TranscriptTarget, lockWaitMs: number): Promise<ShipOutcome>;
}

export interface SenderOptions {
  sink: IngestSink;
  /** Writes documents in one request/transaction and reports each one's outcome. */
  writeDocs(docs: DocInput[]): Promise<WriteResult[]>;
  /** See `LiveSender.probe` (default: always ready). */
  probe?: () => Promise<void>;
  hostname: string;
  paths: LivePaths;
  signal?: AbortSignal;
  /** config.json's `secrets.patterns`, counted beside secretlint's rules. */
  secretPatterns?: readonly SecretPattern[];
}

export function createSender(options: SenderOptions): LiveSender {
  return {
    probe: options.probe ?? (async () => undefined),
    async sendEvents(docs) {
      if (docs.length === 0) return { written: 0, unchanged: 0, conflicts: [] };
      const results = await options.writeDocs(docs as unknown as DocInput[]);
      const out = { written: 0, unchanged: 0, conflicts: [] as string[] };
      for (const r of results) {
        if (r.status === 'written') out.written++;
        else if (r.status === 'unchanged') out.unchanged++;
        else out.conflicts.push(`${r.id}: ${r.reason ?? 'conflict'}`);
      }
      return out;
    },
    shipTranscript: (target, lockWaitMs) =>
      shipTranscript(target, {
        sink: options.sink,
        hostname: options.hostname,
        lockPath: options.paths.sessionLock(target.sessionId),
        lockWaitMs,
        signal: options.signal,
        secretPatterns: options.secretPatterns,
      }),
  };
}

/** Network failures and answers that say "later" (5xx, 408, 429): worth retrying from the spool. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

/**
 * Whether a delivery failure may succeed later (spool it) or never will (reject it, so one bad
 * record cannot block the spool behind it). Unknown errors count as permanent for that reason.
 */
export function isTransient(err: unknown): boolean {
  const e = err as { name?: string; status?: number; code?: string; cause?: unknown };
  if (!e || typeof e !== 'object') return false;
  if (e.name === 'ApiConnectionError' || e.name === 'AbortError' || e.name === 'TimeoutError') return true;
  // 401/403: the token is missing or wrong (CT_API_TOKEN), a setting to fix, not a bad record;
  // the records wait in the spool for the fix rather than being rejected for good.
  if (e.name === 'ApiError' && typeof e.status === 'number')
    return e.status >= 500 || e.status === 408 || e.status === 429 || e.status === 401 || e.status === 403;
  if (typeof e.code === 'string' && (TRANSIENT_CODES.has(e.code) || e.code.startsWith('UND_ERR')))
    return true;
  return e.cause !== undefined && e.cause !== err ? isTransient(e.cause) : false;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
