/**
 * A real S3-protocol server for tests: `s3rver` (from npm) on a free loopback port, storing in a
 * temp dir. Our S3 engine talks to it over HTTP with the AWS SDK, exactly as to AWS or MinIO.
 *
 * One adjustment makes it behave like S3 where our contract depends on it: s3rver writes an
 * object's file in place while the PUT streams in, so a concurrent GET can see half of it; S3
 * (and MinIO, R2, …) replace an object atomically. The shim writes to a temp file and renames it.
 * Nothing of ours is stubbed: S3rver still parses, authenticates and stores every request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cp, mkdir, rename, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createS3Client } from '../../src/store/s3-objects/s3-client.js';

const require = createRequire(import.meta.url);

/** s3rver's default account. */
export const S3_TEST_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  endpoint: string;
  /** Creates a fresh, empty bucket and returns its name. */
  createBucket(): Promise<string>;
  /** A new bucket holding a copy of the objects in `bucketDir` (another s3rver's bucket, stopped). */
  copyBucket(bucketDir: string): Promise<string>;
  /** Where s3rver keeps a bucket's objects on disk. */
  bucketDir(bucket: string): string;
  /** CT_S3_* for a bucket on this server. */
  env(bucket: string): Record<string, string>;
  stop(): Promise<void>;
}

interface S3rverObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: Record<string, string>;
}

/** The parts of s3rver's FilesystemStore the shim uses. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
}

export interface StartS3ServerOptions {
  /** Keep the buckets on disk after `stop` (a template that others copy). */
  keep?: boolean;
}

export async function startS3Server(options: StartS3ServerOptions = {}): Promise<TestS3Server> {
  const S3rver = require('s3rver') as new (options: object) => {
    store: FilesystemStore;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  };
  const root = mkdtempSync(path.join(tmpdir(), 'ct-s3rver-'));
  const directory = path.join(root, 'buckets');
  // Temp files live beside the buckets (same filesystem for the rename), outside what s3rver lists.
  const uploads = path.join(root, 'uploads');
  mkdirSync(directory);
  mkdirSync(uploads);
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  makePutsAtomic(server.store, uploads);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createS3Client({ endpoint, forcePathStyle: true, ...S3_TEST_KEY });
  let buckets = 0;
  const newName = () => `ct-test-${process.pid}-${++buckets}-${randomBytes(3).toString('hex')}`;
  return {
    endpoint,
    async createBucket() {
      const name = newName();
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    async copyBucket(from) {
      // s3rver keeps each bucket as a directory (objects with their metadata files beside them)
      // and reads it from disk on every request, so a copied directory is a bucket.
      const name = newName();
      await cp(from, path.join(directory, name), { recursive: true });
      return name;
    },
    bucketDir: (bucket) => path.join(directory, bucket),
    env: (bucket) => ({
      CT_S3_ENDPOINT: endpoint,
      CT_S3_BUCKET: bucket,
      CT_S3_REGION: 'us-east-1',
      CT_S3_ACCESS_KEY_ID: S3_TEST_KEY.accessKeyId,
      CT_S3_SECRET_ACCESS_KEY: S3_TEST_KEY.secretAccessKey,
      CT_S3_FORCE_PATH_STYLE: 'true',
    }),
    async stop() {
      client.destroy();
      await server.close();
      if (!options.keep) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Writes each object to a temp file, then renames it over the old one (see the header). */
function makePutsAtomic(store: FilesystemStore, uploads: string): void {
  store.putObject = async (object) => {
    const final = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(path.dirname(final), { recursive: true });
    const temp = path.join(uploads, randomBytes(8).toString('hex'));
    const md5 = createHash('md5');
    let size = 0;
    const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
    try {
      await pipeline(
        content,
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            md5.update(chunk);
            size += chunk.length;
            callback(null, chunk);
          },
        }),
        createWriteStream(temp),
      );
      await rename(temp, final);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}
