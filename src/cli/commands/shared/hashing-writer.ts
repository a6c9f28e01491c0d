/** A file written as a stream, hashed on the way: back-pressure respected, so memory stays flat. */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { createSha256Counter, type Sha256Counter } from '../../../bundle/checksum.js';
import type { ManifestFile } from '../../../bundle/manifest.js';

export class HashingWriter {
  readonly #stream: WriteStream;
  readonly #counter: Sha256Counter = createSha256Counter();
  #failure: Error | null = null;

  constructor(path: string) {
    // 'wx': never overwrite — the target directory was checked empty, so an existing file is a race.
    this.#stream = createWriteStream(path, { flags: 'wx', highWaterMark: 1024 * 1024 });
    this.#stream.on('error', (err) => (this.#failure = err));
  }

  get bytes(): number {
    return this.#stream.bytesWritten + this.#stream.writableLength;
  }

  /**
   * Takes a piece (written in the thread pool, with whatever else is queued by then); returns a
   * promise to wait for when enough is queued that the sender should pause.
   */
  write(data: string | Uint8Array): Promise<void> | undefined {
    if (this.#failure) throw this.#failure;
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.#counter.update(buf);
    if (this.#stream.write(buf)) return undefined;
    return once(this.#stream, 'drain').then(() => undefined);
  }

  async close(): Promise<ManifestFile> {
    this.#stream.end();
    await finished(this.#stream);
    if (this.#failure) throw this.#failure;
    return this.#counter.digest();
  }

  /** Stops writing after a failure elsewhere; the partial file stays (there is no manifest yet). */
  destroy(): void {
    this.#stream.destroy();
  }
}
