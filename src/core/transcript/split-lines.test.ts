import { describe, expect, it } from 'vitest';
import { splitLines, type RawLine } from './split-lines.js';

async function* chunksOf(data: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function collect(data: Buffer | string, size = 4, startOffset = 0): Promise<RawLine[]> {
  const out: RawLine[] = [];
  for await (const line of splitLines(chunksOf(Buffer.from(data), size), startOffset)) out.push(line);
  return out;
}

const view = (lines: RawLine[]) =>
  lines.map((l) => ({
    text: l.bytes.toString(),
    start: l.start,
    end: l.end,
    next: l.next,
    terminated: l.terminated,
  }));

describe('splitLines', () => {
  it('yields lines with exact offsets whatever the chunk size', async () => {
    const data = '{"a":1}\n{"bb":22}\n{"c":3}\n';
    for (const size of [1, 2, 3, 7, 1000]) {
      expect(view(await collect(data, size))).toEqual([
        { text: '{"a":1}', start: 0, end: 7, next: 8, terminated: true },
        { text: '{"bb":22}', start: 8, end: 17, next: 18, terminated: true },
        { text: '{"c":3}', start: 18, end: 25, next: 26, terminated: true },
      ]);
    }
  });

  it('skips blank and whitespace-only lines but keeps offsets exact', async () => {
    const data = '\n{"a":1}\n\n  \t\r\n{"b":2}\n\n';
    const lines = await collect(data, 3);
    expect(view(lines)).toEqual([
      { text: '{"a":1}', start: 1, end: 8, next: 9, terminated: true },
      { text: '{"b":2}', start: 15, end: 22, next: 23, terminated: true },
    ]);
    for (const l of lines)
      expect(Buffer.from(data).subarray(l.start, l.end).toString()).toBe(l.bytes.toString());
  });

  it('leaves a \\r before the newline out of the line', async () => {
    expect(view(await collect('{"a":1}\r\n{"b":2}\r\n', 5))).toEqual([
      { text: '{"a":1}', start: 0, end: 7, next: 9, terminated: true },
      { text: '{"b":2}', start: 9, end: 16, next: 18, terminated: true },
    ]);
  });

  it('yields an unterminated final line as such', async () => {
    expect(view(await collect('{"a":1}\n{"b":', 4))).toEqual([
      { text: '{"a":1}', start: 0, end: 7, next: 8, terminated: true },
      { text: '{"b":', start: 8, end: 13, next: 13, terminated: false },
    ]);
    expect(await collect('')).toEqual([]);
    expect(await collect('   ')).toEqual([]);
  });

  it('reports absolute offsets when resuming mid-file', async () => {
    const file = Buffer.from('{"a":1}\n{"b":2}\n{"c":3}\n');
    const [, second] = await collect(file);
    const resumed = await collect(file.subarray(second!.start), 2, second!.start);
    expect(view(resumed).map((l) => [l.text, l.start, l.end])).toEqual([
      ['{"b":2}', 8, 15],
      ['{"c":3}', 16, 23],
    ]);
  });

  it('splits multi-byte characters across chunks without damage', async () => {
    const data = '{"t":"日本語😀"}\n{"t":"é"}\n';
    for (const size of [1, 2, 5]) {
      expect((await collect(data, size)).map((l) => l.bytes.toString())).toEqual([
        '{"t":"日本語😀"}',
        '{"t":"é"}',
      ]);
    }
  });

  it('accepts Uint8Array chunks', async () => {
    async function* source() {
      yield new Uint8Array(Buffer.from('{"a":1}\n{"b"'));
      yield new Uint8Array(Buffer.from(':2}\n'));
    }
    const lines: string[] = [];
    for await (const l of splitLines(source())) lines.push(l.bytes.toString());
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('assembles a line of several megabytes from many small chunks in one piece', async () => {
    const big = `{"x":"${'a'.repeat(3 * 1024 * 1024)}"}`;
    const lines = await collect(`${big}\n{"y":1}\n`, 16 * 1024);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.bytes.length).toBe(big.length);
    expect(lines[0]!.bytes.equals(Buffer.from(big))).toBe(true);
    expect(lines[1]!.start).toBe(big.length + 1);
  });
});
