/**
 * Reading `docs.ndjson` as a stream: one JSON value per `\n`-terminated line, with errors that
 * name the line (`docs.ndjson line 17: not valid JSON …`). Memory holds one line at a time, so a
 * bundle of any size reads in flat memory. A last line without its newline means the file was cut
 * short — an export always ends every line — and is an error, never silently dropped.
 */

export class NdjsonError extends Error {
  override name = 'NdjsonError';
  constructor(
    /** 1-based line number. */
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

export interface NdjsonLine {
  /** 1-based line number. */
  line: number;
  text: string;
  /** Bytes of the line, newline included. */
  bytes: number;
}

export interface ReadNdjsonOptions {
  /** Refuse lines longer than this many bytes (default 512 MiB), before buffering more of them. */
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Splits a byte stream into lines; throws `NdjsonError` for an empty, over-long, truncated or non-UTF-8 line. */
export async function* readNdjsonLines(
  source: AsyncIterable<Uint8Array>,
  options: ReadNdjsonOptions = {},
): AsyncGenerator<NdjsonLine> {
  const max = options.maxLineBytes ?? 512 * 1024 * 1024;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let line = 0;

  const decode = (bytes: Uint8Array): NdjsonLine => {
    line++;
    if (bytes.length === 0) throw new NdjsonError(line, 'empty line (each line must hold one JSON document)');
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new NdjsonError(line, 'not valid UTF-8');
    }
    return { line, text, bytes: bytes.length + 1 };
  };

  for await (const chunk of source) {
    let start = 0;
    for (;;) {
      const idx = chunk.indexOf(NEWLINE, start);
      if (idx === -1) {
        if (start < chunk.length) {
          pending.push(chunk.subarray(start));
          pendingBytes += chunk.length - start;
          if (pendingBytes > max) throw new NdjsonError(line + 1, `line is longer than ${max} bytes`);
        }
        break;
      }
      const piece = chunk.subarray(start, idx);
      if (pending.length > 0) {
        pending.push(piece);
        const joined = concat(pending, pendingBytes + piece.length);
        pending = [];
        pendingBytes = 0;
        if (joined.length > max) throw new NdjsonError(line + 1, `line is longer than ${max} bytes`);
        yield decode(joined);
      } else {
        if (piece.length > max) throw new NdjsonError(line + 1, `line is longer than ${max} bytes`);
        yield decode(piece);
      }
      start = idx + 1;
    }
  }
  if (pendingBytes > 0)
    throw new NdjsonError(line + 1, 'the last line has no newline: the file is truncated');
}

/**
 * Lines parsed as JSON, each with its text; a line that is not JSON throws `NdjsonError` naming
 * it.
 */
export async function* readNdjson(
  source: AsyncIterable<Uint8Array>,
  options: ReadNdjsonOptions = {},
): AsyncGenerator<{ line: number; value: unknown; text: string; bytes: number }> {
  for await (const l of readNdjsonLines(source, options)) {
    let value: unknown;
    try {
      value = JSON.parse(l.text);
    } catch (err) {
      throw new NdjsonError(l.line, `not valid JSON (${(err as Error).message})`);
    }
    yield { line: l.line, value, text: l.text, bytes: l.bytes };
  }
}

/** One line of NDJSON for a value (no newline inside: JSON.stringify escapes them). */
export function ndjsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
