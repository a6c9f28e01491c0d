import { describe, expect, it } from 'vitest';
import { NdjsonError, ndjsonLine, readNdjson, readNdjsonLines } from './ndjson.js';

const enc = new TextEncoder();
async function* chunks(...parts: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield typeof p === 'string' ? enc.encode(p) : p;
}
async function collect<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}
async function failure(gen: AsyncGenerator<unknown>): Promise<NdjsonError> {
  try {
    await collect(gen);
  } catch (err) {
    expect(err).toBeInstanceOf(NdjsonError);
    return err as NdjsonError;
  }
  throw new Error('expected an NdjsonError');
}

describe('readNdjson', () => {
  it('reads values with line numbers across chunk boundaries', async () => {
    const text = ndjsonLine({ a: 1 }) + ndjsonLine({ b: 'x\ny' }) + ndjsonLine([3]);
    // Split into 3-byte chunks so lines straddle several chunks.
    const bytes = enc.encode(text);
    const parts: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 3) parts.push(bytes.subarray(i, i + 3));
    const out = await collect(readNdjson(chunks(...parts)));
    expect(out.map((l) => [l.line, l.value])).toEqual([
      [1, { a: 1 }],
      [2, { b: 'x\ny' }],
      [3, [3]],
    ]);
    expect(out.reduce((n, l) => n + l.bytes, 0)).toBe(bytes.length);
  });

  it('decodes multi-byte UTF-8 split between chunks', async () => {
    const bytes = enc.encode('{"t":"日本語"}\n');
    const out = await collect(readNdjson(chunks(bytes.subarray(0, 8), bytes.subarray(8))));
    expect(out[0]!.value).toEqual({ t: '日本語' });
  });

  it('names the line that is not JSON', async () => {
    const err = await failure(readNdjson(chunks('{"a":1}\n{"b":2}\n{oops\n{"c":3}\n')));
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/^line 3: not valid JSON/);
  });

  it('refuses a last line without its newline (a truncated file)', async () => {
    const err = await failure(readNdjson(chunks('{"a":1}\n{"b":')));
    expect(err.line).toBe(2);
    expect(err.reason).toMatch(/truncated/);
  });

  it('refuses an empty line', async () => {
    const err = await failure(readNdjsonLines(chunks('{"a":1}\n\n{"b":2}\n')));
    expect(err.line).toBe(2);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const err = await failure(readNdjsonLines(chunks(new Uint8Array([0x22, 0xff, 0x22, 0x0a]))));
    expect(err.line).toBe(1);
    expect(err.reason).toMatch(/UTF-8/);
  });

  it('refuses an over-long line without buffering all of it', async () => {
    const err = await failure(readNdjsonLines(chunks('"aaaa', 'aaaa', 'aaaa"\n'), { maxLineBytes: 8 }));
    expect(err.line).toBe(1);
    expect(err.reason).toMatch(/longer than 8 bytes/);
  });

  it('reads an empty file as no lines', async () => {
    expect(await collect(readNdjson(chunks()))).toEqual([]);
  });
});
