/** Reading a little of a session file to learn what its path does not say. */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';

/** How much of a file's head, and of its tail, is read to learn its session. */
export const PEEK_BYTES = 256 * 1024;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SESSION_UUID = new RegExp(`^${UUID}$`, 'i');

/** The pattern of a uuid, for file-name rules. */
export const UUID_PATTERN = UUID;

/** A session id as the agents make them (a uuid), not a fixture's or a file's name. */
export const isSessionUuid = (id: string): boolean => SESSION_UUID.test(id);

/** The file name without its extension (`.jsonl`, `.json`). */
export const stemOf = (path: string): string => basename(path).replace(/\.jsonl?$/, '');

export type Rec = Record<string, unknown>;

/** The records that parse in the file's first and last PEEK_BYTES (the same ones when it is small). */
export async function peekRecords(file: string): Promise<{ head: Rec[]; tail: Rec[] }> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const read = async (start: number) => {
      const buf = Buffer.alloc(Math.min(PEEK_BYTES, size - start));
      const { bytesRead } = await fh.read(buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead).toString('utf8');
    };
    const head = records((await read(0)).split('\n'));
    if (size <= PEEK_BYTES) return { head, tail: head };
    // The tail starts inside a line: its first piece is not a record.
    return { head, tail: records((await read(size - PEEK_BYTES)).split('\n').slice(1)) };
  } finally {
    await fh.close();
  }
}

/** The first PEEK_BYTES of a file, as text. */
export async function peekHead(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(PEEK_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

function records(lines: string[]): Rec[] {
  const out: Rec[] = [];
  for (const line of lines) {
    try {
      const rec = JSON.parse(line) as unknown;
      if (rec && typeof rec === 'object' && !Array.isArray(rec)) out.push(rec as Rec);
    } catch {
      // a partial or malformed line: not evidence either way
    }
  }
  return out;
}
