/**
 * What the S3 engine promises beyond the object contract (which runs in postgres.contract.test.ts):
 * clear errors at start for a missing bucket, refused credentials or an unreachable endpoint;
 * multipart uploads; local files sent whole or in parts by size; appends past the 5 MiB copy
 * threshold; all against a real S3-protocol server.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, S3_TEST_KEY, type TestS3Server } from '../../../test/support/s3-server.js';
import { startSilentServer } from '../../../test/support/silent-server.js';
import { StoreConfigError, StoreInputError } from '../contract.js';
import { copyRanges } from './s3-compose.js';
import { S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store.js';

let server: TestS3Server;
const MiB = 1024 * 1024;

beforeAll(async () => {
  server = await startS3Server();
});
afterAll(() => server?.stop());

const options = (bucket: string, extra: Partial<S3ObjectStoreOptions> = {}): S3ObjectStoreOptions => ({
  bucket,
  endpoint: server.endpoint,
  forcePathStyle: true,
  ...S3_TEST_KEY,
  ...extra,
});

async function read(store: S3ObjectStore, key: string, range?: { start?: number; end?: number }) {
  const stream = await store.get(key, range);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('s3 objects: opening', () => {
  it('names a missing bucket', async () => {
    const err = await S3ObjectStore.open(options('no-such-bucket')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreConfigError);
    expect((err as Error).message).toMatch(
      /S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist/,
    );
  });

  it('says when the credentials are refused', async () => {
    const bucket = await server.createBucket();
    // s3rver checks the key id (it does not verify SigV4 signatures), so the key is what is wrong.
    const err = await S3ObjectStore.open(options(bucket, { accessKeyId: 'NOBODY' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreConfigError);
    expect((err as Error).message).toMatch(
      /refused access: check CT_S3_ACCESS_KEY_ID and CT_S3_SECRET_ACCESS_KEY/,
    );
  });

  it('gives up on an endpoint that takes the connection but never answers', async () => {
    const silent = await startSilentServer();
    const err = await S3ObjectStore.open(options('b', { endpoint: `http://127.0.0.1:${silent.port}` })).catch(
      (e: unknown) => e,
    );
    await silent.close();
    expect(err).toBeInstanceOf(StoreConfigError);
    expect((err as Error).message).toMatch(
      /no answer from S3 bucket "b" at .* \(CT_S3_ENDPOINT\) within 10 s/,
    );
  }, 30_000);

  it('names an endpoint nothing answers at', async () => {
    const err = await S3ObjectStore.open(options('b', { endpoint: 'http://127.0.0.1:1' })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreConfigError);
    expect((err as Error).message).toMatch(
      /cannot reach S3 bucket "b" at http:\/\/127\.0\.0\.1:1 \(CT_S3_ENDPOINT\)/,
    );
  });
});

describe('s3 objects: large objects', () => {
  let store: S3ObjectStore;
  beforeAll(async () => {
    store = await S3ObjectStore.open(options(await server.createBucket(), { partSize: 5 * MiB }));
  });
  afterAll(() => store?.close());

  it('uploads in parts and reads back exactly, whole and ranged', async () => {
    const body = randomBytes(12 * MiB);
    const put = await store.put('big/transcript.jsonl', [body.subarray(0, 7 * MiB), body.subarray(7 * MiB)], {
      sha256: sha256(body),
    });
    expect(put).toEqual({ key: 'big/transcript.jsonl', size: body.length, sha256: sha256(body) });
    expect((await read(store, 'big/transcript.jsonl'))!.equals(body)).toBe(true);
    expect((await read(store, 'big/transcript.jsonl', { start: 6 * MiB, end: 6 * MiB + 10 }))!).toEqual(
      body.subarray(6 * MiB, 6 * MiB + 10),
    );
  });

  it('stores a local file whole up to the part size and in parts past it, byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ct-s3-file-'));
    try {
      const file = join(dir, 'transcript.jsonl');
      const data = randomBytes(11 * MiB + 3);
      await writeFile(file, data);
      const ranges = [
        [0, 5 * MiB], // exactly one part: a single request
        [7, 5 * MiB + 7],
        [0, data.length], // three parts
        [MiB + 1, data.length],
      ] as const;
      for (const [start, end] of ranges) {
        const key = `file-${start}-${end}/transcript.jsonl`;
        expect(await store.putFile(key, { path: file, start, end })).toEqual({ key, size: end - start });
        expect((await read(store, key))!.equals(data.subarray(start, end))).toBe(true);
      }

      // A file that shrank below the range fails either way, and the stored object stays whole.
      const stored = `file-0-${5 * MiB}/transcript.jsonl`;
      const before = (await read(store, stored))!;
      await writeFile(file, data.subarray(0, 2 * MiB));
      for (const end of [5 * MiB, data.length]) {
        const err = await store.putFile(stored, { path: file, start: 0, end }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StoreInputError);
        expect((err as Error).message).toMatch(/holds 2097152 bytes, fewer than the/);
      }
      expect((await read(store, stored))!.equals(before)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('appends past the 5 MiB copy threshold, and a bad append leaves the object whole', async () => {
    const first = randomBytes(6 * MiB);
    const more = randomBytes(MiB + 17);
    await store.put('grow/transcript.jsonl', [first]);
    const appended = await store.put('grow/transcript.jsonl', [more], { offset: first.length });
    expect(appended).toEqual({
      key: 'grow/transcript.jsonl',
      size: first.length + more.length,
      sha256: sha256(more),
    });
    expect((await read(store, 'grow/transcript.jsonl'))!.equals(Buffer.concat([first, more]))).toBe(true);

    // Replace the tail after an offset inside the object, as a re-ingest of a rewritten line does.
    const tail = Buffer.from('new tail\n');
    await store.put('grow/transcript.jsonl', [tail], { offset: first.length });
    expect((await read(store, 'grow/transcript.jsonl'))!.equals(Buffer.concat([first, tail]))).toBe(true);

    const before = (await read(store, 'grow/transcript.jsonl'))!;
    await expect(
      store.put('grow/transcript.jsonl', [more], { offset: first.length, sha256: sha256(tail) }),
    ).rejects.toBeInstanceOf(StoreInputError);
    expect((await read(store, 'grow/transcript.jsonl'))!.equals(before)).toBe(true);
    expect(await store.totals()).toMatchObject({ objects: 6 });
  });
});

describe('s3 objects: copy ranges', () => {
  it('covers the prefix in parts between 5 MiB and 5 GiB', () => {
    expect(copyRanges(6 * MiB)).toEqual([[0, 6 * MiB]]);
    const big = 11 * 1024 * MiB;
    const ranges = copyRanges(big);
    expect(ranges).toHaveLength(3);
    expect(ranges[0]![0]).toBe(0);
    expect(ranges.at(-1)![1]).toBe(big);
    for (const [s, e] of ranges) expect(e - s).toBeLessThanOrEqual(5 * 1024 * MiB);
  });
});
