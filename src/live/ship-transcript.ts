/**
 * Ships what was appended to one session's transcript files since the last time, by running the
 * ingest pipeline over them (main transcript and `<session>/subagents/*.jsonl`) into a sink —
 * the HTTP API for the hook, the store itself for the server. Holds the session's lock meanwhile,
 * so parallel hooks and the watcher never ingest one session at once.
 */
import type { SecretPattern } from '../secrets/scan.js';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MAIN_TRANSCRIPT } from '../core/doc-ids.js';
import { ingestSession, type IngestSessionResult, type SessionFile } from '../ingest/ingest-session.js';
import type { IngestSink } from '../ingest/sink.js';
import { withLock } from './file-lock.js';

export interface TranscriptTarget {
  sessionId: string;
  /** The main transcript (`transcript_path`); its folder also holds the subagent files. */
  path: string;
}

export interface ShipOptions {
  sink: IngestSink;
  hostname: string;
  /** The session's lock file (`livePaths(…).sessionLock(id)`). */
  lockPath: string;
  /** How long to wait for another ingester of the session. */
  lockWaitMs: number;
  signal?: AbortSignal;
  /** config.json's `secrets.patterns`, counted beside secretlint's rules. */
  secretPatterns?: readonly SecretPattern[];
}

export type ShipOutcome =
  { status: 'shipped'; result: IngestSessionResult } | { status: 'no-files' } | { status: 'busy' };

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() === true;

/** The session's transcript files that exist now: the main one and its subagents' (layout since 2.0). */
export async function sessionFiles(target: TranscriptTarget): Promise<SessionFile[]> {
  const files: SessionFile[] = [];
  if (await isFile(target.path)) files.push({ path: target.path, objectName: MAIN_TRANSCRIPT });
  const agents = join(dirname(target.path), target.sessionId, 'subagents');
  const names = await readdir(agents).catch(() => [] as string[]);
  for (const name of names.sort()) {
    if (!name.endsWith('.jsonl')) continue;
    const path = join(agents, name);
    if (await isFile(path)) files.push({ path, objectName: `subagents/${name}` });
  }
  return files;
}

export async function shipTranscript(target: TranscriptTarget, options: ShipOptions): Promise<ShipOutcome> {
  const files = await sessionFiles(target);
  if (files.length === 0) return { status: 'no-files' };
  const done = await withLock(options.lockPath, { waitMs: options.lockWaitMs }, () =>
    ingestSession({
      sessionId: target.sessionId,
      files,
      sink: options.sink,
      hostname: options.hostname,
      source: 'live',
      provenance: 'live',
      signal: options.signal,
      secretPatterns: options.secretPatterns,
    }),
  );
  return done ? { status: 'shipped', result: done.value } : { status: 'busy' };
}
