import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createIo } from './io.js';

function capture(isTTY: boolean) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => (err += d));
  const io = createIo({ stdout, stderr, isTTY });
  return { io, err: () => err };
}

describe('io', () => {
  it('prints plain progress lines on a pipe, throttled, always the last one', async () => {
    const { io, err } = capture(false);
    const p = io.progress('backfill', { plainEveryMs: 60_000 });
    p.update({ filesDone: 0, filesTotal: 3, bytesDone: 0, bytesTotal: 3 * 1024 * 1024 });
    p.update({ filesDone: 1, filesTotal: 3, bytesDone: 1024 * 1024, bytesTotal: 3 * 1024 * 1024 });
    p.update({ filesDone: 3, filesTotal: 3, bytesDone: 3 * 1024 * 1024, bytesTotal: 3 * 1024 * 1024 });
    // Totals that grow page by page are "done" after every page: still no line until the end.
    p.update({ filesDone: 4, filesTotal: 4, bytesDone: 4 * 1024 * 1024, bytesTotal: 4 * 1024 * 1024 });
    p.stop();
    await io.flush();
    expect(err().trim().split('\n')).toEqual([
      'backfill: 0/3 files, 0.0/3.0 MB',
      'backfill: 4/4 files, 4.0/4.0 MB',
    ]);
  });

  it('fills by files and shows only the bytes done while the byte total is unknown', async () => {
    const plain = capture(false);
    const p = plain.io.progress('export', { plainEveryMs: 0 });
    p.update({ filesDone: 2, filesTotal: 4, bytesDone: 6 * 1024 * 1024 });
    p.stop();
    await plain.io.flush();
    expect(plain.err().trim()).toBe('export: 2/4 files, 6.0 MB');

    const tty = capture(true);
    const bar = tty.io.progress('export');
    bar.update({ filesDone: 2, filesTotal: 4, bytesDone: 6 * 1024 * 1024 });
    bar.stop();
    await tty.io.flush();
    expect(tty.err()).toContain('50%');
    expect(tty.err()).toContain('2/4 files | 6.0 MB');
  });

  it('draws a bar with files, MB and ETA on a TTY', async () => {
    const { io, err } = capture(true);
    const p = io.progress('backfill');
    p.update({ filesDone: 1, filesTotal: 2, bytesDone: 512 * 1024, bytesTotal: 1024 * 1024 });
    p.update({ filesDone: 2, filesTotal: 2, bytesDone: 1024 * 1024, bytesTotal: 1024 * 1024 });
    p.stop();
    await io.flush();
    expect(err()).toContain('backfill [');
    expect(err()).toContain('2/2 files');
    expect(err()).toContain('1.0/1.0 MB');
    expect(err()).toContain('ETA');
  });
});
