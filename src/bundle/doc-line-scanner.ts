/**
 * What export needs to know about each `docs.ndjson` line — its id, type, session and the objects
 * it names — read from the bytes as they stream past, without parsing whole documents: a chunk
 * line can be megabytes, and parsing every one of them cost export most of its time. Ids are
 * deterministic (doc-ids.ts), so type, session and a chunk's file come from the id; only a
 * summary (small) is parsed, for its list of files. A line whose id has another shape is parsed
 * whole, so nothing depends on the fast path being right.
 */
import { isBundledId, objectNamesOf } from './bundle-doc.js';
import { NdjsonError } from './ndjson.js';

export interface ScannedDoc {
  id: string;
  type: string;
  sessionId: string;
  /** Objects the document says its session has (a chunk's file, a summary's files). */
  objectNames: string[];
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ID_PREFIX = Buffer.from('{"_id":"');
/** Bytes of a line's start joined to find its id (ids are a few hundred bytes at most). */
const ID_HEAD_BYTES = 4096;

export class DocLineScanner {
  /** The start of a line that has no newline yet: pieces of the caller's chunks, not copies. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #line = 0;

  /** Scans the complete lines in `chunk` (a partial last line waits for the next chunk). */
  push(chunk: Uint8Array, onDoc: (doc: ScannedDoc) => void): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(NEWLINE, start);
      if (nl === -1) break;
      const piece = buf.subarray(start, nl);
      if (this.#pending.length) {
        this.#pending.push(piece);
        onDoc(this.#scan(this.#pending, this.#pendingBytes + piece.length));
        this.#pending = [];
        this.#pendingBytes = 0;
      } else onDoc(this.#scan([piece], piece.length));
      start = nl + 1;
    }
    if (start < buf.length) {
      this.#pending.push(buf.subarray(start));
      this.#pendingBytes += buf.length - start;
    }
  }

  /** The stream ended: a line left without its newline means it was cut short. */
  end(): void {
    if (this.#pending.length)
      throw new NdjsonError(this.#line + 1, 'arrived without its newline: the transfer was cut short');
  }

  /**
   * One line, in pieces. Only its head is joined to read the id; the whole line is joined (and
   * parsed) only for a summary or an id of another shape: chunk lines run to megabytes.
   */
  #scan(pieces: Buffer[], bytes: number): ScannedDoc {
    this.#line++;
    const head = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, Math.min(bytes, ID_HEAD_BYTES));
    const id = idOf(head);
    const fast = id === null ? null : fromId(id);
    if (fast && fast.type !== 'summary') return fast;
    const line = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, bytes);
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new NdjsonError(this.#line, `not valid JSON (${(err as Error).message})`);
    }
    const { _id, type, sessionId } = doc;
    if (
      typeof _id !== 'string' ||
      !isBundledId(_id) ||
      typeof type !== 'string' ||
      typeof sessionId !== 'string'
    )
      throw new NdjsonError(this.#line, 'not a session document (it needs string _id, type and sessionId)');
    return { id: _id, type, sessionId, objectNames: objectNamesOf(doc) };
  }
}

/** The `_id` a line opens with, or null when it does not open with one. */
function idOf(line: Buffer): string | null {
  if (
    line.length < ID_PREFIX.length ||
    line.compare(ID_PREFIX, 0, ID_PREFIX.length, 0, ID_PREFIX.length) !== 0
  )
    return null;
  for (let i = ID_PREFIX.length; i < line.length; i++) {
    const b = line[i];
    if (b === BACKSLASH) i++;
    else if (b === QUOTE) return JSON.parse(line.toString('utf8', ID_PREFIX.length - 1, i + 1)) as string;
  }
  return null;
}

/**
 * Type, session and object of a `summary:<s>`, `chunk:<s>:<file>:<offset>` or `event:<s>:…` id.
 * Session ids and object names never hold a colon (object-key.ts), so the split is exact.
 */
function fromId(id: string): ScannedDoc | null {
  const parts = id.split(':');
  const [type, sessionId] = parts;
  if (!sessionId) return null;
  if (type === 'summary' && parts.length === 2) return { id, type, sessionId, objectNames: [] };
  if (type === 'chunk' && parts.length === 4 && parts[2])
    return { id, type, sessionId, objectNames: [parts[2]] };
  if (type === 'event' && parts.length >= 3) return { id, type, sessionId, objectNames: [] };
  return null;
}
