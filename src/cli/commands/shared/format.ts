/** Small formatters the terminal commands share: durations, times, status markers, widths, sizes. */
import type { WriteStream } from 'node:tty';
import type { Env } from '../../../config/paths.js';
import type { Io } from '../../io.js';
import { terminalLine } from './terminal-text.js';

// Durations and byte sizes read the same in the CLI, the web UI and the Markdown export.
export {
  formatBytes,
  formatCost,
  formatDuration,
  formatTotalsCost,
  formatUsd,
  modelCost,
  modelShares,
  modelLabel,
} from '../../../core/display-format.js';

/** `2025-07-05 19:39` (UTC, minutes) for tables; an em dash when unknown. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}

/** The seed's status markers (§1.1): pulsing dot, hollow ring, square — with the word, for pipes. */
export function statusLabel(status: string): string {
  const marker = status === 'running' ? '●' : status === 'abandoned' ? '○' : status === 'ended' ? '■' : '?';
  const word = status === 'running' ? 'live' : status === 'abandoned' ? 'incomplete' : status;
  return `${marker} ${word}`;
}

/** `1 session`, `2 sessions`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** Whether stdout is a terminal (colour, marks); progress uses `io.isTTY`, which is stderr's. */
export function stdoutIsTTY(io: Io): boolean {
  return (io.stdout as Partial<WriteStream>).isTTY === true;
}

/**
 * The width tables must fit: the terminal's columns, else `COLUMNS`, else none (a pipe gets whole
 * lines, which is what scripts and `grep` want).
 */
export function outputWidth(io: Io, env: Env): number | undefined {
  const cols = (io.stdout as Partial<WriteStream>).columns;
  if (stdoutIsTTY(io) && cols && cols > 20) return cols;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 20 ? fromEnv : undefined;
}

/** Writes to stdout honouring back-pressure, so paging a long transcript into `less` stays flat. */
export async function writeOut(io: Io, text: string): Promise<void> {
  if (io.stdout.destroyed || io.stdout.writableEnded) throw new ReaderGoneError('output closed');
  if (io.stdout.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      io.stdout.off('error', fail);
      resolve();
    };
    const fail = (err: Error) => {
      io.stdout.off('drain', done);
      reject(err);
    };
    io.stdout.once('drain', done);
    io.stdout.once('error', fail);
  });
}

/**
 * A snippet segment for the terminal: escape sequences removed and controls pictured
 * (`terminalLine`), whitespace collapsed to single spaces (keeps a hit on one line).
 */
export function oneLineSnippet(s: string): string {
  return terminalLine(s).replace(/\s+/g, ' ');
}

/** Thrown by `writeOut` once the reader has gone (`| head`), to stop producing output. */
export class ReaderGoneError extends Error {
  override name = 'ReaderGoneError';
}

/**
 * Makes a closed pipe (`transcripts transcript x | head`) end the command quietly instead of
 * crashing on EPIPE. Returns the function that removes the guard.
 */
export function guardClosedPipe(io: Io): () => void {
  const onError = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED')
      io.err(`error writing output: ${err.message}`);
  };
  io.stdout.on('error', onError);
  return () => io.stdout.off('error', onError);
}
