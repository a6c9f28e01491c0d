/**
 * The hook's log: one JSON line per call in `live/hook.log` — when, which event and session, what
 * happened (sent, spooled, replayed, skipped), how long it took, and every problem with the
 * payload. The hook prints nothing (Claude Code would read stdout), so this is where "why" goes;
 * `transcripts hooks status` reads it back. Rotated at 1 MiB (one old file kept).
 */
import { appendFileSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirsSync } from '../config/make-dirs.js';

const MAX_BYTES = 1024 * 1024;

export type HookOutcome = 'sent' | 'spooled' | 'replayed' | 'skipped' | 'rejected' | 'failed';

export interface HookLogLine {
  at: string;
  ms: number;
  event: string | null;
  sessionId: string | null;
  outcome: HookOutcome;
  /** The API it talked to. */
  api?: string;
  /** Bytes of transcript shipped by this call. */
  shipped?: number;
  /** Records delivered from the spool by this call. */
  replayed?: number;
  problems?: string[];
  error?: string;
  /** Free-form notes (spool full, lock busy, …). */
  notes?: string[];
}

/** Appends one line. Never throws: a log that cannot be written must not fail the hook. */
export function writeHookLog(path: string, line: HookLogLine): void {
  try {
    makeDirsSync(dirname(path));
    const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
    if (size > MAX_BYTES) renameSync(path, `${path}.1`);
    appendFileSync(path, `${JSON.stringify(line)}\n`);
  } catch {
    // nowhere left to say it
  }
}

/** The last `n` lines (newest last), from the current and the rotated file. */
export function readHookLog(path: string, n = 50): HookLogLine[] {
  const lines: HookLogLine[] = [];
  for (const file of [`${path}.1`, path]) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const l of text.split('\n')) {
      if (!l.trim()) continue;
      try {
        lines.push(JSON.parse(l) as HookLogLine);
      } catch {
        // a torn line: skip
      }
    }
  }
  return lines.slice(-n);
}
