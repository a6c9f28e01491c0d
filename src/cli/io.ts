/**
 * Where commands write. On a TTY long work shows a progress bar (files, MB, ETA); on a pipe or
 * file it prints a plain line every few seconds instead, so logs stay readable. Tests pass their
 * own streams and choose the mode.
 */
import type { SingleBar } from 'cli-progress';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';

export interface TransferProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  /** Unknown (a stream whose size nobody can tell yet): the bar then fills by files. */
  bytesTotal?: number;
  currentFile?: string;
}

/** "3.0/12.5 MB", or "3.0 MB" while the total is unknown. */
const megabytes = (p: TransferProgress) =>
  p.bytesTotal === undefined ? formatMb(p.bytesDone) : `${formatMb(p.bytesDone)}/${formatMb(p.bytesTotal)}`;

export interface ProgressReporter {
  update(p: TransferProgress): void;
  stop(): void;
}

export interface Io {
  stdout: Writable;
  stderr: Writable;
  isTTY: boolean;
  out(line: string): void;
  err(line: string): void;
  /** A progress display for a transfer: a bar on a TTY, periodic plain lines otherwise. */
  progress(label: string, options?: { plainEveryMs?: number }): ProgressReporter;
  /**
   * Resolves once everything written so far has reached the OS. Writes to a pipe are
   * asynchronous, and the bin calls process.exit() right after main() returns.
   */
  flush(): Promise<void>;
}

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded) return resolve();
    stream.write('', () => resolve());
  });
}

const MB = 1024 * 1024;
export const formatMb = (bytes: number) => (bytes / MB).toFixed(1);

export function createIo(options: { stdout?: Writable; stderr?: Writable; isTTY?: boolean } = {}): Io {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const isTTY = options.isTTY ?? Boolean((stderr as NodeJS.WriteStream).isTTY);
  return {
    stdout,
    stderr,
    isTTY,
    out: (line) => void stdout.write(`${line}\n`),
    err: (line) => void stderr.write(`${line}\n`),
    progress(label, opts = {}) {
      return isTTY ? barProgress(label, stderr) : plainProgress(label, stderr, opts.plainEveryMs ?? 2000);
    },
    flush: async () => {
      await Promise.all([drained(stdout), drained(stderr)]);
    },
  };
}

/** Loaded by the first bar: most commands show none, and every command pays for what main imports. */
const loadSingleBar = () =>
  (createRequire(import.meta.url)('cli-progress') as { SingleBar: typeof SingleBar }).SingleBar;

function barProgress(label: string, stream: Writable): ProgressReporter {
  const Bar = loadSingleBar();
  const bar = new Bar({
    format: `${label} [{bar}] {percentage}% | {files} files | {mb} MB | ETA {eta_formatted}`,
    stream: stream as NodeJS.WriteStream,
    hideCursor: true,
    barsize: 30,
    etaBuffer: 50,
    fps: 5,
    // We already chose bar mode (io decided it is a terminal); render even if the stream cannot say.
    noTTYOutput: true,
  });
  let started = false;
  return {
    update(p) {
      const payload = { files: `${p.filesDone}/${p.filesTotal}`, mb: megabytes(p) };
      const [done, total] =
        p.bytesTotal === undefined ? [p.filesDone, p.filesTotal] : [p.bytesDone, p.bytesTotal];
      if (!started) {
        bar.start(Math.max(total, 1), done, payload);
        started = true;
      } else {
        bar.setTotal(Math.max(total, 1));
        bar.update(done, payload);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

function plainProgress(label: string, stream: Writable, everyMs: number): ProgressReporter {
  let last = 0;
  let lastLine = '';
  let latest = '';
  const print = (line: string) => {
    stream.write(`${line}\n`);
    last = Date.now();
    lastLine = line;
  };
  return {
    // At most one line per interval; the final state when progress stops. (An export whose totals
    // grow page by page is "done" after every page: printing then made a line per page.)
    update(p) {
      latest = `${label}: ${p.filesDone}/${p.filesTotal} files, ${megabytes(p)} MB`;
      if (latest !== lastLine && (lastLine === '' || Date.now() - last >= everyMs)) print(latest);
    },
    stop() {
      if (latest !== '' && latest !== lastLine) print(latest);
    },
  };
}
