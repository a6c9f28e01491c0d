import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIo } from '../../io.js';
import { withElapsed } from './elapsed.js';

function capture(isTTY: boolean) {
  const written: string[] = [];
  const stderr = new Writable({
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString());
      done();
    },
  });
  return { io: createIo({ stdout: new Writable({ write: (_c, _e, d) => d() }), stderr, isTTY }), written };
}

describe('withElapsed', () => {
  afterEach(() => vi.useRealTimers());

  it('shows the seconds waited on a terminal, then clears the line', async () => {
    vi.useFakeTimers();
    const { io, written } = capture(true);
    let finish!: (v: string) => void;
    const waiting = withElapsed(io, 'reindexing', new Promise<string>((r) => (finish = r)));
    await vi.advanceTimersByTimeAsync(2100);
    finish('done');
    expect(await waiting).toBe('done');
    expect(written).toEqual([
      '\rreindexing… 1s',
      '\rreindexing… 1s',
      '\rreindexing… 2s',
      '\rreindexing… 2s',
      '\r\x1b[K',
    ]);
  });

  it('writes nothing when not on a terminal, or when asked to be quiet (--json)', async () => {
    for (const [isTTY, quiet] of [
      [false, false],
      [true, true],
    ] as const) {
      const { io, written } = capture(isTTY);
      expect(await withElapsed(io, 'x', Promise.resolve(1), quiet)).toBe(1);
      expect(written).toEqual([]);
    }
  });

  it('clears the line when the work fails too', async () => {
    const { io, written } = capture(true);
    await expect(withElapsed(io, 'x', Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(written).toEqual(['\r\x1b[K']);
  });
});
