/**
 * The object-store contract, run against every engine (STYLE §6): byte-exact round trips, ranges,
 * appends at an offset, checksums, atomic replacement, puts from local files, listing and key
 * validation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { StoreInputError, type ObjectStore } from '../contract.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';

async function read(
  objects: ObjectStore,
  key: string,
  range?: { start?: number; end?: number },
): Promise<Buffer | null> {
  const stream = await objects.get(key, range);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Yields `data` in slices, yielding to the event loop between them (a slow network body). */
async function* slowly(data: Buffer, slice = 256 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += slice) {
    await tick();
    yield data.subarray(at, at + slice);
  }
}

export function describeObjectStoreContract(options: ContractOptions): void {
  describeWithStore(options, 'object round trips', (store) => {
    it('stores and returns bytes exactly, from buffers, streams and async iterables', async () => {
      const objects = store().objects;
      const big = randomBytes(5 * 1024 * 1024);
      const put = await objects.put('s1/transcript.jsonl', slowly(big));
      expect(put).toEqual({ key: 's1/transcript.jsonl', size: big.length, sha256: sha256(big) });
      expect((await read(objects, 's1/transcript.jsonl'))!.equals(big)).toBe(true);
      expect(await objects.stat('s1/transcript.jsonl')).toMatchObject({
        key: 's1/transcript.jsonl',
        size: big.length,
      });

      await objects.put('s1/a.jsonl', [Buffer.from('hello '), Buffer.from('wörld')]);
      expect((await read(objects, 's1/a.jsonl'))!.toString()).toBe('hello wörld');
      await objects.put('s1/b.jsonl', Readable.from([Buffer.from('from a stream')]));
      expect((await read(objects, 's1/b.jsonl'))!.toString()).toBe('from a stream');
      await objects.put('s1/empty.jsonl', []);
      expect(await read(objects, 's1/empty.jsonl')).toEqual(Buffer.alloc(0));
      expect(await objects.get('s1/absent.jsonl')).toBeNull();
      expect(await objects.stat('s1/absent.jsonl')).toBeNull();
    });

    it('serves byte ranges with an exclusive end', async () => {
      const objects = store().objects;
      await objects.put('s/t.jsonl', [Buffer.from('0123456789')]);
      expect((await read(objects, 's/t.jsonl', { start: 2, end: 5 }))!.toString()).toBe('234');
      expect((await read(objects, 's/t.jsonl', { start: 7 }))!.toString()).toBe('789');
      expect((await read(objects, 's/t.jsonl', { end: 3 }))!.toString()).toBe('012');
      expect((await read(objects, 's/t.jsonl', { start: 8, end: 100 }))!.toString()).toBe('89');
      expect((await read(objects, 's/t.jsonl', { start: 4, end: 4 }))!.length).toBe(0);
      expect((await read(objects, 's/t.jsonl', { start: 20 }))!.length).toBe(0);
      await expect(objects.get('s/t.jsonl', { start: 5, end: 2 })).rejects.toBeInstanceOf(StoreInputError);
    });
  });

  describeWithStore(options, 'object appends and checksums', (store) => {
    it('appends at an offset, replacing whatever followed it', async () => {
      const objects = store().objects;
      await objects.put('s/t.jsonl', [Buffer.from('abc')]);
      const appended = await objects.put('s/t.jsonl', [Buffer.from('def')], { offset: 3 });
      expect(appended).toEqual({ key: 's/t.jsonl', size: 6, sha256: sha256('def') });
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('abcdef');
      await objects.put('s/t.jsonl', [Buffer.from('XY')], { offset: 4, sha256: sha256('XY') });
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('abcdXY');
      expect((await objects.stat('s/t.jsonl'))!.size).toBe(6);
    });

    it('rejects an offset beyond the stored size, naming both, and changes nothing', async () => {
      const objects = store().objects;
      await objects.put('s/t.jsonl', [Buffer.from('abcdef')]);
      const err = await objects.put('s/t.jsonl', [Buffer.from('x')], { offset: 10 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreInputError);
      expect((err as Error).message).toMatch(/10/);
      expect((err as Error).message).toMatch(/6/);
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('abcdef');
      await expect(objects.put('s/none.jsonl', [Buffer.from('x')], { offset: 1 })).rejects.toBeInstanceOf(
        StoreInputError,
      );
      expect(await objects.stat('s/none.jsonl')).toBeNull();
    });

    it('discards a body whose sha256 does not match, keeping the old object', async () => {
      const objects = store().objects;
      await objects.put('s/t.jsonl', [Buffer.from('old content')]);
      const wrong = sha256('something else');
      await expect(
        objects.put('s/t.jsonl', [Buffer.from('new content')], { sha256: wrong }),
      ).rejects.toBeInstanceOf(StoreInputError);
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('old content');
      await expect(
        objects.put('s/t.jsonl', [Buffer.from(' more')], { offset: 11, sha256: wrong }),
      ).rejects.toBeInstanceOf(StoreInputError);
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('old content');
      await expect(
        objects.put('s/fresh.jsonl', [Buffer.from('x')], { sha256: wrong }),
      ).rejects.toBeInstanceOf(StoreInputError);
      expect(await objects.stat('s/fresh.jsonl')).toBeNull();
      await objects.put('s/t.jsonl', [Buffer.from('new content')], {
        sha256: sha256('new content').toUpperCase(),
      });
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('new content');
    });

    it('keeps the old object when the body stream fails half way', async () => {
      const objects = store().objects;
      await objects.put('s/t.jsonl', [Buffer.from('intact')]);
      async function* broken(): AsyncGenerator<Uint8Array> {
        yield Buffer.from('partial ');
        await tick();
        throw new Error('client went away');
      }
      await expect(objects.put('s/t.jsonl', broken())).rejects.toThrow('client went away');
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('intact');
      await expect(objects.put('s/t.jsonl', broken(), { offset: 6 })).rejects.toThrow('client went away');
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('intact');
      await expect(objects.put('s/new.jsonl', broken())).rejects.toThrow('client went away');
      expect(await objects.stat('s/new.jsonl')).toBeNull();
    });

    it('never shows a concurrent reader half of a replaced object', async () => {
      const objects = store().objects;
      const size = 5 * 1024 * 1024;
      const oldBody = Buffer.alloc(size, 'a');
      const newBody = Buffer.alloc(size, 'b');
      await objects.put('s/t.jsonl', [oldBody]);
      let done = false;
      const writing = objects.put('s/t.jsonl', slowly(newBody, 64 * 1024)).finally(() => {
        done = true;
      });
      let reads = 0;
      while (!done) {
        const seen = (await read(objects, 's/t.jsonl'))!;
        expect(seen.length).toBe(size);
        expect(seen.equals(oldBody) || seen.equals(newBody)).toBe(true);
        reads += 1;
      }
      await writing;
      expect(reads).toBeGreaterThan(0);
      expect((await read(objects, 's/t.jsonl'))!.equals(newBody)).toBe(true);
    });
  });

  describeWithStore(options, 'objects from local files', (store) => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ct-put-file-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('stores a file byte for byte, or the part of it up to the end given', async () => {
      const objects = store().objects;
      const file = join(dir, 'transcript.jsonl');
      const data = randomBytes(3 * 1024 * 1024 + 17);
      await writeFile(file, data);
      expect(await objects.putFile('s/t.jsonl', { path: file, start: 0, end: data.length })).toEqual({
        key: 's/t.jsonl',
        size: data.length,
      });
      expect((await read(objects, 's/t.jsonl'))!.equals(data)).toBe(true);

      // The file grew after its size was taken: only the bytes up to that size are kept.
      await objects.putFile('s/grown.jsonl', { path: file, start: 0, end: 1000 });
      expect((await read(objects, 's/grown.jsonl'))!.equals(data.subarray(0, 1000))).toBe(true);

      await writeFile(join(dir, 'empty.jsonl'), '');
      await objects.putFile('s/empty.jsonl', { path: join(dir, 'empty.jsonl'), start: 0, end: 0 });
      expect(await read(objects, 's/empty.jsonl')).toEqual(Buffer.alloc(0));
    });

    it('appends a file’s new bytes at an offset', async () => {
      const objects = store().objects;
      const file = join(dir, 'transcript.jsonl');
      await writeFile(file, 'line one\n');
      await objects.putFile('s/t.jsonl', { path: file, start: 0, end: 9 });
      await writeFile(file, 'line one\nline two\n');
      expect(await objects.putFile('s/t.jsonl', { path: file, start: 9, end: 18 }, { offset: 9 })).toEqual({
        key: 's/t.jsonl',
        size: 18,
      });
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('line one\nline two\n');
    });

    it('keeps the stored object when the file holds fewer bytes than asked, and says so', async () => {
      const objects = store().objects;
      const file = join(dir, 'transcript.jsonl');
      await writeFile(file, 'short');
      await objects.put('s/t.jsonl', [Buffer.from('intact')]);
      for (const [range, offset] of [
        [{ start: 0, end: 100 }, 0],
        [{ start: 2, end: 100 }, 6],
      ] as const) {
        const err = await objects
          .putFile('s/t.jsonl', { path: file, ...range }, { offset })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StoreInputError);
        expect((err as Error).message).toMatch(/transcript\.jsonl holds 5 bytes, fewer than the 100/);
        expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('intact');
      }
      await expect(objects.putFile('s/new.jsonl', { path: file, start: 0, end: 100 })).rejects.toBeInstanceOf(
        StoreInputError,
      );
      expect(await objects.stat('s/new.jsonl')).toBeNull();
      await expect(objects.putFile('s/bad.jsonl', { path: file, start: 3, end: 1 })).rejects.toBeInstanceOf(
        StoreInputError,
      );
      await expect(
        objects.putFile('s/missing.jsonl', { path: join(dir, 'absent.jsonl'), start: 0, end: 5 }),
      ).rejects.toThrow(/ENOENT/);
      expect(await objects.stat('s/missing.jsonl')).toBeNull();
    });

    it('gives the object an object’s permissions, not those of a read-only source', async () => {
      const objects = store().objects;
      const file = join(dir, 'transcript.jsonl');
      await writeFile(file, 'read only\n', { mode: 0o444 });
      await objects.putFile('s/t.jsonl', { path: file, start: 0, end: 10 });
      // Replacing it again works (a copy that kept mode 0444 could not be truncated or synced).
      await chmod(file, 0o644);
      await writeFile(file, 'read only\nand more\n');
      await objects.putFile('s/t.jsonl', { path: file, start: 0, end: 19 });
      expect((await read(objects, 's/t.jsonl'))!.toString()).toBe('read only\nand more\n');
    });
  });

  describeWithStore(options, 'object listing and keys', (store) => {
    it('lists one session recursively in key order and deletes objects', async () => {
      const objects = store().objects;
      await objects.put('s1/transcript.jsonl', [Buffer.from('123')]);
      await objects.put('s1/subagents/agent-2.jsonl', [Buffer.from('22')]);
      await objects.put('s1/subagents/agent-1.jsonl', [Buffer.from('1')]);
      await objects.put('s2/transcript.jsonl', [Buffer.from('other')]);
      const listed = await objects.list('s1');
      expect(listed.map((o) => [o.key, o.size])).toEqual([
        ['s1/subagents/agent-1.jsonl', 1],
        ['s1/subagents/agent-2.jsonl', 2],
        ['s1/transcript.jsonl', 3],
      ]);
      expect(listed.every((o) => !Number.isNaN(Date.parse(o.mtime)))).toBe(true);
      expect(await objects.list('nobody')).toEqual([]);

      expect(await objects.delete('s1/subagents/agent-1.jsonl')).toBe(true);
      expect(await objects.delete('s1/subagents/agent-1.jsonl')).toBe(false);
      expect(await objects.get('s1/subagents/agent-1.jsonl')).toBeNull();
      expect((await objects.list('s1')).map((o) => o.key)).toEqual([
        's1/subagents/agent-2.jsonl',
        's1/transcript.jsonl',
      ]);
      expect((await objects.list('s2')).map((o) => o.key)).toEqual(['s2/transcript.jsonl']);
    });

    it('lists every session a page at a time, in key order', async () => {
      const objects = store().objects;
      const keys = ['b/t.jsonl', 'a/transcript.jsonl', 'a/subagents/agent-1.jsonl', 'c/x.jsonl', 'c/y.jsonl'];
      for (const [i, key] of keys.entries()) await objects.put(key, [Buffer.from('x'.repeat(i + 1))]);
      const sorted = [...keys].sort();
      expect((await objects.listPage({ limit: 100 })).map((o) => o.key)).toEqual(sorted);

      const paged: string[] = [];
      for (let after: string | undefined; ;) {
        const page = await objects.listPage({ after, limit: 2 });
        expect(page.length).toBeLessThanOrEqual(2);
        paged.push(...page.map((o) => o.key));
        if (page.length < 2) break;
        after = page.at(-1)!.key;
      }
      expect(paged).toEqual(sorted);

      const page = await objects.listPage({ after: 'a/subagents/agent-1.jsonl', limit: 2 });
      expect(page.map((o) => [o.key, o.size])).toEqual([
        ['a/transcript.jsonl', 2],
        ['b/t.jsonl', 1],
      ]);
      // A position that is no object's key pages from there.
      expect((await objects.listPage({ after: 'b0', limit: 100 })).map((o) => o.key)).toEqual([
        'c/x.jsonl',
        'c/y.jsonl',
      ]);
      expect(await objects.listPage({ after: 'c/y.jsonl', limit: 100 })).toEqual([]);
      await expect(objects.listPage({ limit: 0 })).rejects.toBeInstanceOf(StoreInputError);
      await expect(objects.listPage({ limit: 1.5 })).rejects.toBeInstanceOf(StoreInputError);
    });

    it('rejects keys that could escape the store, on every operation', async () => {
      const objects = store().objects;
      for (const key of [
        '../x',
        '/abs',
        'a/../../b',
        'a\\b',
        '',
        's/../x',
        's/./x',
        's//x',
        'only-session',
        's/x\u0000y',
      ]) {
        await expect(objects.put(key, [Buffer.from('x')]), key).rejects.toBeInstanceOf(StoreInputError);
        await expect(objects.get(key), key).rejects.toBeInstanceOf(StoreInputError);
        await expect(objects.stat(key), key).rejects.toBeInstanceOf(StoreInputError);
        await expect(objects.delete(key), key).rejects.toBeInstanceOf(StoreInputError);
      }
      for (const sessionId of ['..', '', 'a/b', '.']) {
        await expect(objects.list(sessionId), sessionId).rejects.toBeInstanceOf(StoreInputError);
      }
    });
  });
}
