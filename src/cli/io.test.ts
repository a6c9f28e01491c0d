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
    p.stop();
    await io.flush();
    expect(err().trim().split('\n')).toEqual([
      'backfill: 0/3 files, 0.0/3.0 MB',
      'backfill: 3/3 files, 3.0/3.0 MB',
    ]);
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
