import { describe, expect, it } from 'vitest';
import { redactPaths } from './redact-paths.js';

describe('redactPaths', () => {
  it('takes absolute paths out of filesystem errors', () => {
    expect(
      redactPaths("ENAMETOOLONG: name too long, open '/tmp/ct-api-x/ct/object-uploads/s/aaaa.tmp'"),
    ).toBe("ENAMETOOLONG: name too long, open '…'");
    expect(redactPaths('EACCES: permission denied, mkdir /home/me/.local/share/transcripts/objects')).toBe(
      'EACCES: permission denied, mkdir …',
    );
    expect(redactPaths('cannot open C:\\Users\\me\\data.db')).toBe('cannot open …');
    expect(redactPaths('rename "/a/b" -> "/c/d"')).toBe('rename "…" -> "…"');
  });

  it('leaves relative names, single segments and words with slashes alone', () => {
    for (const m of [
      'object key "s1/transcript.jsonl" has an empty segment',
      'no route GET /api',
      'read/write conflict',
      'value "2147483600" is out of range for type integer',
    ])
      expect(redactPaths(m)).toBe(m);
  });
});
