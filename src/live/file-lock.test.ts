import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, withLock } from './file-lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'ct-lock-'));

describe('file lock', () => {
  it('lets one holder in at a time', async () => {
    const path = join(dir(), 'locks', 'a.lock');
    const first = await acquireLock(path);
    expect(first).not.toBeNull();
    expect(await acquireLock(path, { waitMs: 30 })).toBeNull();
    await first!.release();
    expect(existsSync(path)).toBe(false);
    const second = await acquireLock(path);
    expect(second).not.toBeNull();
    await second!.release();
  });

  it('serialises concurrent work', async () => {
    const path = join(dir(), 'b.lock');
    const order: string[] = [];
    const job = (name: string) =>
      withLock(path, { waitMs: 5000, pollMs: 2 }, async () => {
        order.push(`${name}:in`);
        await new Promise((r) => setTimeout(r, 10));
        order.push(`${name}:out`);
      });
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(job));
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]!.replace(':in', ':out'));
  });

  it('takes over the lock of a process that died', async () => {
    const path = join(dir(), 'c.lock');
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    writeFileSync(path, `${dead}\n${hostname()}\n${Date.now()}\nx`);
    const lock = await acquireLock(path);
    expect(lock).not.toBeNull();
    await lock!.release();
  });

  it('takes over a lock held too long, but not a fresh one of a live process', async () => {
    const path = join(dir(), 'd.lock');
    writeFileSync(path, `${process.pid}\n${hostname()}\n${Date.now()}\nx`);
    expect(await acquireLock(path, { waitMs: 20 })).toBeNull();
    writeFileSync(path, `${process.pid}\n${hostname()}\n${Date.now() - 10 * 60_000}\nx`);
    const lock = await acquireLock(path);
    expect(lock).not.toBeNull();
    await lock!.release();
  });
});
