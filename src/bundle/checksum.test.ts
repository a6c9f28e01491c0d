import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fileMismatch, hashStream } from './checksum.js';

describe('checksums', () => {
  it('hashes a stream in pieces as one', async () => {
    const data = Buffer.from('hello, bundle\n'.repeat(1000));
    async function* parts() {
      for (let i = 0; i < data.length; i += 777) yield data.subarray(i, i + 777);
    }
    expect(await hashStream(parts())).toEqual({
      bytes: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    });
  });

  it('words a size mismatch as a possible truncation and a hash mismatch as corruption', () => {
    const a = { bytes: 10, sha256: 'a'.repeat(64) };
    expect(fileMismatch('docs.ndjson', a, a)).toBeNull();
    expect(fileMismatch('docs.ndjson', a, { ...a, bytes: 9 })).toMatch(
      /9 bytes, but the manifest says 10 \(truncated\?\)/,
    );
    expect(fileMismatch('docs.ndjson', a, { ...a, sha256: 'b'.repeat(64) })).toMatch(/changed or corrupted/);
  });
});
