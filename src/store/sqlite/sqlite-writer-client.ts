/**
 * The main thread's handle on the writer thread: sends a write, resolves with its result in the
 * order sent. A write that resolved is visible to every later read on the main connection.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fromWireError, type WriteOp, type WriteReply, type WriteRequest } from './sqlite-writer-protocol.js';

/**
 * The compiled worker script. Under the test runner this module is TypeScript source, which a
 * worker thread cannot load; the suite builds `dist/` first, so the compiled twin is used.
 */
function writerScript(): URL {
  const sibling = new URL('./sqlite-writer.js', import.meta.url);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  const compiled = fileURLToPath(sibling).replace(/([\\/])src([\\/]store[\\/]sqlite[\\/])/, '$1dist$1src$2');
  if (!existsSync(compiled))
    throw new Error(`sqlite writer thread not built: run \`npm run build\` (${compiled})`);
  return new URL(`file://${compiled}`);
}

/** Young-generation size of the writer thread's heap, in MB. */
const WRITER_YOUNG_GENERATION_MB = 8;
/**
 * Old-generation limit of the writer thread's heap, in MB. V8 lets a heap grow by up to 4× its
 * live size between full collections when the limit is large (the default here is some 4 GB),
 * but by 1.3–2× under about 2 GB. The writer holds tens of MB at most (one batch, a page of a
 * view build), so 1 GB costs it nothing and keeps its garbage from piling up: 1 GB ingest, peak
 * RSS 276–288 MB (mean 284, 4 runs) → 261–294 MB (mean 272, 7 runs) at the same CPU time. The
 * main thread's heap, which this does not touch, swings by ±15 MB from run to run.
 */
const WRITER_OLD_GENERATION_MB = 1024;

export class SqliteWriterClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #nextId = 1;
  #failed: Error | null = null;
  #closing: Promise<void> | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: WriteReply) => {
      const p = this.#pending.get(reply.id);
      if (!p) return;
      this.#pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else p.reject(fromWireError(reply.error));
    });
    const fail = (err: Error) => {
      this.#failed = err;
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.#pending.size > 0) fail(new Error(`sqlite writer thread exited (${code})`));
      this.#failed ??= new Error('the store is closed');
    });
    // The worker must not keep the process alive on its own; pending writes keep it referenced.
    worker.unref();
  }

  static start(file: string): SqliteWriterClient {
    // A small young generation: the writer's batches are short-lived, and V8's default let the
    // thread hold some 50 MB more of them than it needs (1 GB ingest: peak RSS 304 → 272-282 MB,
    // same speed). A modest old generation, for the same reason (see above).
    return new SqliteWriterClient(
      new Worker(writerScript(), {
        workerData: { file },
        resourceLimits: {
          maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB,
          maxOldGenerationSizeMb: WRITER_OLD_GENERATION_MB,
        },
      }),
    );
  }

  write<T>(op: WriteOp | 'close', ...args: unknown[]): Promise<T> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#closing && op !== 'close') return Promise.reject(new Error('the store is closed'));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, {
        resolve: (v) => {
          if (this.#pending.size === 0) this.#worker.unref();
          resolve(v as T);
        },
        reject: (e) => {
          if (this.#pending.size === 0) this.#worker.unref();
          reject(e);
        },
      });
      this.#worker.postMessage({ id, op, args } satisfies WriteRequest);
    });
  }

  /** Waits for writes in flight, closes the writer's connection and ends the thread. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#worker.ref(); // keep the process alive until the thread has really ended
      try {
        if (!this.#failed) await this.write('close');
      } finally {
        await this.#worker.terminate();
      }
    })();
    return this.#closing;
  }
}
