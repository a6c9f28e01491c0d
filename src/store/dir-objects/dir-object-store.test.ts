import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreInputError } from '../contract.js';
import { DirObjectStore } from './dir-object-store.js';

let dir: string;
let root: string;
let uploads: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-dir-objects-'));
  root = join(dir, 'objects');
  uploads = join(dir, 'object-uploads');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DirObjectStore files on disk', () => {
  it('leaves no temp file behind after a failed stream or a checksum mismatch', async () => {
    const objects = await DirObjectStore.open({ root, uploads });
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('half');
      throw new Error('aborted');
    }
    await expect(objects.put('s/t.jsonl', broken())).rejects.toThrow('aborted');
    await expect(
      objects.put('s/t.jsonl', [Buffer.from('x')], {
        sha256: createHash('sha256').update('y').digest('hex'),
      }),
    ).rejects.toBeInstanceOf(StoreInputError);
    await objects.put('s/t.jsonl', [Buffer.from('ok')]);
    expect(await readdir(uploads)).toEqual([]);
    expect(await readdir(join(root, 's'))).toEqual(['t.jsonl']);
  });

  it('stores a key at <root>/<sessionId>/<name> and removes emptied directories on delete', async () => {
    const objects = await DirObjectStore.open({ root, uploads });
    await objects.put('s/subagents/agent-1.jsonl', [Buffer.from('abc')]);
    expect((await stat(join(root, 's', 'subagents', 'agent-1.jsonl'))).size).toBe(3);
    await objects.delete('s/subagents/agent-1.jsonl');
    expect(await readdir(root)).toEqual([]);
  });

  it('clears stale uploads of a crashed process at open, keeping recent ones', async () => {
    await mkdir(uploads, { recursive: true });
    const stale = join(uploads, 'stale.part');
    const fresh = join(uploads, 'fresh.part');
    await writeFile(stale, 'x');
    await writeFile(fresh, 'y');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    await DirObjectStore.open({ root, uploads });
    expect(await readdir(uploads)).toEqual(['fresh.part']);
  });

  it('pages in key order where a session id extends another with a character below "/"', async () => {
    const objects = await DirObjectStore.open({ root, uploads });
    // Directory 'a' sorts before 'a-b', but every key 'a-b/…' and 'a.c/…' before 'a/…'.
    const keys = [
      'a/transcript.jsonl',
      'a/subagents/agent-1.jsonl',
      'a-b/t.jsonl',
      'a.c/x.jsonl',
      'b/t.jsonl',
    ];
    for (const key of keys) await objects.put(key, [Buffer.from('x')]);
    const sorted = [...keys].sort();
    expect((await objects.listPage({ limit: 100 })).map((o) => o.key)).toEqual(sorted);
    const paged: string[] = [];
    for (let after: string | undefined; ;) {
      const page = await objects.listPage({ after, limit: 1 });
      if (page.length === 0) break;
      paged.push(page[0]!.key);
      after = page[0]!.key;
    }
    expect(paged).toEqual(sorted);
    expect((await objects.listPage({ after: 'a-b', limit: 2 })).map((o) => o.key)).toEqual([
      'a-b/t.jsonl',
      'a.c/x.jsonl',
    ]);
  });

  it('totals objects and bytes over all sessions', async () => {
    const objects = await DirObjectStore.open({ root, uploads });
    await objects.put('a/transcript.jsonl', [Buffer.from('12345')]);
    await objects.put('b/subagents/x.jsonl', [Buffer.from('12')]);
    expect(await objects.totals()).toEqual({ objects: 2, objectBytes: 7 });
  });

  it('reports a key that collides with a directory as bad input', async () => {
    const objects = await DirObjectStore.open({ root, uploads });
    await objects.put('s/subagents/a.jsonl', [Buffer.from('x')]);
    await expect(objects.put('s/subagents', [Buffer.from('y')])).rejects.toBeInstanceOf(StoreInputError);
    expect(await objects.get('s/subagents')).toBeNull();
    expect(await readdir(uploads)).toEqual([]);
  });
});
