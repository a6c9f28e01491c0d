/**
 * Objects in any S3-compatible bucket (AWS S3, R2, MinIO, Garage, Ceph), keyed exactly as in the
 * directory engine: `<sessionId>/transcript.jsonl`, `<sessionId>/subagents/<name>.jsonl`.
 *
 * A put streams through a sha256 and into a (multipart, when large) upload; the object appears only
 * when S3 commits the PUT or CompleteMultipartUpload, both atomic, so a reader sees the old object
 * or the new one and a failed or mismatching body leaves the old one untouched. S3 cannot append:
 * a put at an offset composes a new object from the first `offset` bytes of the stored one and
 * the new bytes (see s3-compose.ts).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { objectKeyProblem, sessionIdProblem } from '../../core/object-key.js';
import {
  StoreConfigError,
  StoreInputError,
  type FileRange,
  type ObjectInfo,
  type ObjectStore,
  type PutObjectOptions,
  type PutObjectResult,
} from '../contract.js';
import { checkFileRange, fileRangeBytes, readFileRange } from '../objects-common/file-range.js';
import { checkPage } from '../objects-common/list-page.js';
import { checkSha256, type Body } from '../objects-common/object-body.js';
import { composeWithCopy, COPY_MIN_BYTES, hashedBody, type Received } from './s3-compose.js';
import { createS3Client, type S3ClientOptions } from './s3-client.js';
import { httpStatus, isNotFound } from './s3-errors.js';

export interface S3ObjectStoreOptions extends S3ClientOptions {
  bucket: string;
  /** Multipart part size in bytes (at least 5 MiB; default 8 MiB). */
  partSize?: number;
}

const MIN_PART_BYTES = 5 * 1024 * 1024;

export class S3ObjectStore implements ObjectStore {
  readonly #s3: S3Client;
  readonly #bucket: string;
  readonly #partSize: number;
  /** Whether the server does UploadPartCopy (s3rver and a few others do not); learnt on first use. */
  #copyParts: boolean | undefined;

  private constructor(s3: S3Client, options: S3ObjectStoreOptions) {
    this.#s3 = s3;
    this.#bucket = options.bucket;
    this.#partSize = Math.max(MIN_PART_BYTES, options.partSize ?? 8 * 1024 * 1024);
  }

  /** Connects and checks the bucket (HeadBucket), so a wrong name or key fails at start, clearly. */
  static async open(options: S3ObjectStoreOptions): Promise<S3ObjectStore> {
    const s3 = createS3Client(options);
    try {
      // An endpoint that takes the connection but never answers must not hang the start.
      await s3.send(new HeadBucketCommand({ Bucket: options.bucket }), {
        abortSignal: AbortSignal.timeout(OPEN_TIMEOUT_MS),
      });
    } catch (err) {
      s3.destroy();
      throw bucketError(err, options);
    }
    return new S3ObjectStore(s3, options);
  }

  put(key: string, body: Body, options: PutObjectOptions = {}): Promise<PutObjectResult> {
    return this.#write(key, body, options, true);
  }

  /** `hashing: false` (a local file's bytes, whose sha256 nobody asks for) skips our own pass. */
  async #write(
    key: string,
    body: Body,
    options: PutObjectOptions,
    hashing: boolean,
  ): Promise<PutObjectResult> {
    checkKey(key);
    const expected = checkSha256(options.sha256);
    const offset = options.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0)
      throw new StoreInputError('offset must be a non-negative integer');
    const received: Received = { size: 0, sha256: '' };
    if (offset === 0) {
      await this.#upload(key, hashedBody(body, received, expected, key, hashing));
      return { key, size: received.size, sha256: received.sha256 };
    }

    const head = await this.#head(key);
    if (!head) {
      throw new StoreInputError(
        `cannot write ${key} at offset ${offset}: the object does not exist (0 bytes)`,
      );
    }
    if (head.size < offset) {
      throw new StoreInputError(
        `cannot write ${key} at offset ${offset}: the object holds only ${head.size} bytes`,
      );
    }
    if (offset >= COPY_MIN_BYTES && this.#copyParts !== false) {
      const composed = await composeWithCopy(this.#s3, {
        bucket: this.#bucket,
        key,
        offset,
        etag: head.etag,
        body: hashedBody(body, received, expected, key, hashing),
        partSize: this.#partSize,
      });
      if (composed) {
        this.#copyParts = true;
        return { key, size: offset + received.size, sha256: received.sha256 };
      }
      this.#copyParts = false; // the server lacks UploadPartCopy: read and re-upload instead
    }
    const prefix = await this.#getStream(key, `bytes=0-${offset - 1}`, head.etag);
    if (!prefix) throw new StoreInputError(`cannot write ${key} at offset ${offset}: the object was deleted`);
    await this.#upload(key, concat(prefix, hashedBody(body, received, expected, key, hashing)));
    return { key, size: offset + received.size, sha256: received.sha256 };
  }

  async putFile(
    key: string,
    source: FileRange,
    options: { offset?: number } = {},
  ): Promise<{ key: string; size: number }> {
    checkFileRange(source);
    const length = source.end - source.start;
    if ((options.offset === undefined || options.offset === 0) && length <= this.#partSize) {
      // What a multipart upload would hold as its only part goes as one PutObject, read straight
      // into its buffer rather than streamed through the uploader's chunking (200 MB in 321
      // files: 2.1–2.9 → 1.8–2.2 CPU-seconds). Past a part, the file is streamed in parts.
      checkKey(key);
      const bytes = await readFileRange(source);
      await this.#s3.send(
        new PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: bytes, ContentLength: bytes.length }),
      );
      return { key, size: bytes.length };
    }
    const { size } = await this.#write(key, fileRangeBytes(source), { offset: options.offset }, false);
    return { key, size };
  }

  async get(key: string, range: { start?: number; end?: number } = {}): Promise<Readable | null> {
    checkKey(key);
    const start = range.start ?? 0;
    if (!Number.isInteger(start) || start < 0)
      throw new StoreInputError('range start must be a non-negative integer');
    if (range.end !== undefined && (!Number.isInteger(range.end) || range.end < start)) {
      throw new StoreInputError('range end must be an integer not below start');
    }
    if (range.end !== undefined && range.end === start) {
      return (await this.#head(key)) ? Readable.from([]) : null;
    }
    const header =
      start > 0 || range.end !== undefined
        ? `bytes=${start}-${range.end !== undefined ? range.end - 1 : ''}`
        : undefined;
    return this.#getStream(key, header);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    checkKey(key);
    const head = await this.#head(key);
    return head ? { key, size: head.size, mtime: head.mtime } : null;
  }

  async list(sessionId: string): Promise<ObjectInfo[]> {
    const problem = sessionIdProblem(sessionId);
    if (problem) throw new StoreInputError(problem);
    const out = await this.#listAll(`${sessionId}/`);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async listPage(options: { after?: string; limit: number }): Promise<ObjectInfo[]> {
    const { after, limit } = checkPage(options);
    const out: ObjectInfo[] = [];
    for await (const o of this.#listing(undefined, after)) {
      // Whatever else shares the bucket is not an object of a session.
      if (objectKeyProblem(o.key)) continue;
      if (out.push(o) >= limit) break;
    }
    return out;
  }

  async delete(key: string): Promise<boolean> {
    checkKey(key);
    // S3 deletes answer the same whether the object existed; the contract reports which.
    if (!(await this.#head(key))) return false;
    await this.#s3.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
    return true;
  }

  /** Object count and bytes in the bucket, for `Store.stats()` (one listing per 1000 objects). */
  async totals(): Promise<{ objects: number; objectBytes: number }> {
    const all = await this.#listAll(undefined);
    return { objects: all.length, objectBytes: all.reduce((n, o) => n + o.size, 0) };
  }

  close(): void {
    this.#s3.destroy();
  }

  /**
   * Uploads a body (multipart when larger than a part). When the body itself fails — a broken
   * stream, a checksum mismatch — that error is the one reported, not a failure to clean up after it.
   */
  async #upload(key: string, body: AsyncIterable<Uint8Array>): Promise<void> {
    const failure: { error?: unknown } = {};
    async function* watched(): AsyncGenerator<Uint8Array> {
      try {
        yield* body;
      } catch (err) {
        failure.error = err;
        throw err;
      }
    }
    try {
      await new Upload({
        client: this.#s3,
        params: { Bucket: this.#bucket, Key: key, Body: Readable.from(watched()) },
        partSize: this.#partSize,
        queueSize: 2,
        leavePartsOnError: false,
      }).done();
    } catch (err) {
      throw failure.error ?? err;
    }
  }

  async #head(key: string): Promise<{ size: number; mtime: string; etag?: string } | null> {
    try {
      const r = await this.#s3.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return {
        size: r.ContentLength ?? 0,
        mtime: (r.LastModified ?? new Date(0)).toISOString(),
        ...(r.ETag ? { etag: r.ETag } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async #getStream(key: string, range?: string, ifMatch?: string): Promise<Readable | null> {
    try {
      const r = await this.#s3.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          ...(range ? { Range: range } : {}),
          ...(ifMatch ? { IfMatch: ifMatch } : {}),
        }),
      );
      return (r.Body as Readable | undefined) ?? Readable.from([]);
    } catch (err) {
      if (isNotFound(err)) return null;
      // The object exists but the range starts at or past its end: nothing to read.
      if (httpStatus(err) === 416) return Readable.from([]);
      if (httpStatus(err) === 412) {
        throw new StoreInputError(`${key} was replaced while it was being extended; retry the write`);
      }
      throw err;
    }
  }

  async #listAll(prefix: string | undefined): Promise<ObjectInfo[]> {
    const out: ObjectInfo[] = [];
    for await (const o of this.#listing(prefix, undefined)) out.push(o);
    return out;
  }

  /**
   * The objects under `prefix` after `marker`, in key order, a listing request per 1000. Version 1
   * of the call, paged by the last key seen: every S3-compatible server has it, while version 2's
   * continuation tokens are not universal (s3rver builds them with DES, which OpenSSL 3 no longer
   * offers, and fails any listing of more than one page).
   */
  async *#listing(prefix: string | undefined, marker: string | undefined): AsyncGenerator<ObjectInfo> {
    for (;;) {
      const page = await this.#s3.send(
        new ListObjectsCommand({
          Bucket: this.#bucket,
          MaxKeys: 1000,
          ...(prefix !== undefined ? { Prefix: prefix } : {}),
          ...(marker !== undefined ? { Marker: marker } : {}),
        }),
      );
      for (const o of page.Contents ?? []) {
        if (!o.Key) continue;
        yield { key: o.Key, size: o.Size ?? 0, mtime: (o.LastModified ?? new Date(0)).toISOString() };
        marker = o.Key;
      }
      if (page.IsTruncated !== true || !page.Contents?.length) return;
    }
  }
}

function checkKey(key: string): void {
  const problem = objectKeyProblem(key);
  if (problem) throw new StoreInputError(problem);
}

async function* concat(first: Readable, rest: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of first) yield chunk as Uint8Array;
  } finally {
    first.destroy();
  }
  yield* rest;
}

/** How long opening waits for the bucket's answer. */
const OPEN_TIMEOUT_MS = 10_000;

function bucketError(err: unknown, options: S3ObjectStoreOptions): Error {
  const where = `S3 bucket "${options.bucket}" at ${options.endpoint ?? `AWS (${options.region ?? 'us-east-1'})`}`;
  const status = httpStatus(err);
  const code = (err as { code?: string; name?: string }).code ?? (err as { name?: string }).name;
  if (code === 'AbortError' || code === 'TimeoutError') {
    return new StoreConfigError(
      `no answer from ${where} (CT_S3_ENDPOINT) within ${OPEN_TIMEOUT_MS / 1000} s`,
    );
  }
  if (status === 404) {
    return new StoreConfigError(
      `${where} does not exist (CT_S3_BUCKET); create it first (or CT_S3_ENDPOINT is not an S3 server)`,
    );
  }
  if (status === 403 || status === 401) {
    return new StoreConfigError(
      `${where} refused access: check CT_S3_ACCESS_KEY_ID and CT_S3_SECRET_ACCESS_KEY (and the bucket's policy)`,
    );
  }
  if (status === 301 || status === 400) {
    return new StoreConfigError(
      `${where} answered ${status}: is CT_S3_REGION right, or CT_S3_FORCE_PATH_STYLE needed?`,
    );
  }
  if (code && /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET/.test(code)) {
    return new StoreConfigError(`cannot reach ${where} (CT_S3_ENDPOINT): ${code}`);
  }
  return new StoreConfigError(`${where}: ${err instanceof Error ? err.message : String(err)}`);
}
