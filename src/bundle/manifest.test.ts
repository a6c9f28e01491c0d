import { describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION } from './format.js';
import { type Manifest, parseManifest, serializeManifest } from './manifest.js';

const sha = (c: string) => c.repeat(64);

function manifest(over: Partial<Manifest> = {}): Manifest {
  return {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    createdAt: '2026-01-02T03:04:05.000Z',
    schemaVersion: 10,
    source: { url: 'http://127.0.0.1:7650', version: '0.1.0', exportedBy: '0.1.0' },
    selection: { since: null, sessions: null, blobs: true },
    counts: {
      sessions: 1,
      documents: 2,
      documentsByType: { summary: 1, chunk: 1 },
      objects: 1,
      objectBytes: 10,
    },
    sessions: ['s1'],
    files: {
      'docs.ndjson': { bytes: 100, sha256: sha('a') },
      'blobs/s1/transcript.jsonl': { bytes: 10, sha256: sha('b') },
    },
    missingObjects: [],
    ...over,
  };
}

describe('parseManifest', () => {
  it('round-trips what serializeManifest writes', () => {
    const m = manifest();
    const r = parseManifest(serializeManifest(m));
    expect(r).toEqual({ ok: true, manifest: m });
  });

  it('says when the text is not JSON', () => {
    expect(parseManifest('{"format":')).toMatchObject({ ok: false, kind: 'not-json' });
  });

  it('refuses another format by name', () => {
    const r = parseManifest(JSON.stringify({ ...manifest(), format: 'couchdb-dump' }));
    expect(r).toMatchObject({ ok: false, kind: 'unknown-format' });
    if (!r.ok) expect(r.message).toMatch(/not a transcripts bundle/);
  });

  it('refuses a future format version and says to upgrade, whatever else the manifest holds', () => {
    const r = parseManifest(
      JSON.stringify({ format: BUNDLE_FORMAT, formatVersion: BUNDLE_FORMAT_VERSION + 1, whatever: 1 }),
    );
    expect(r).toMatchObject({ ok: false, kind: 'future-format' });
    if (!r.ok) expect(r.message).toMatch(/upgrade transcripts/);
  });

  it('names an invalid field', () => {
    const r = parseManifest(JSON.stringify({ ...manifest(), schemaVersion: 'ten' }));
    expect(r).toMatchObject({ ok: false, kind: 'invalid' });
    if (!r.ok) expect(r.message).toMatch(/manifest\.schemaVersion/);
  });

  it('refuses file paths that would leave the bundle', () => {
    for (const path of ['blobs/s1/../../etc/passwd', '../docs.ndjson', 'blobs//x', '/abs/path']) {
      const files = { ...manifest().files, [path]: { bytes: 0, sha256: sha('c') } };
      const r = parseManifest(
        JSON.stringify(manifest({ files, counts: { ...manifest().counts, objects: 2 } })),
      );
      expect(r.ok, path).toBe(false);
    }
  });

  it('checks counts against the file list', () => {
    const r = parseManifest(JSON.stringify(manifest({ counts: { ...manifest().counts, objects: 3 } })));
    expect(r).toMatchObject({ ok: false, kind: 'invalid' });
  });

  it('requires docs.ndjson in the file list', () => {
    const r = parseManifest(
      JSON.stringify(manifest({ files: { 'blobs/s1/transcript.jsonl': { bytes: 10, sha256: sha('b') } } })),
    );
    expect(r.ok).toBe(false);
  });

  it('takes a manifest that holds only the schema version, as the specification allows', () => {
    expect(parseManifest('{"schemaVersion": 10}')).toEqual({ ok: true, minimal: { schemaVersion: 10 } });
    // With our format named but no file list, it is minimal too; other fields are not read.
    expect(
      parseManifest(JSON.stringify({ format: BUNDLE_FORMAT, formatVersion: 1, schemaVersion: 3, note: 'x' })),
    ).toEqual({ ok: true, minimal: { schemaVersion: 3 } });
  });

  it('still names what a minimal manifest lacks, and refuses another format or a future one', () => {
    const none = parseManifest('{}');
    expect(none).toMatchObject({ ok: false, kind: 'invalid' });
    if (!none.ok) expect(none.message).toMatch(/manifest\.schemaVersion/);
    expect(parseManifest('{"schemaVersion": -1}')).toMatchObject({ ok: false, kind: 'invalid' });
    expect(parseManifest('{"format": "couchdb-dump", "schemaVersion": 10}')).toMatchObject({
      ok: false,
      kind: 'unknown-format',
    });
    expect(
      parseManifest(JSON.stringify({ formatVersion: BUNDLE_FORMAT_VERSION + 1, schemaVersion: 10 })),
    ).toMatchObject({ ok: false, kind: 'future-format' });
  });

  it('refuses a file list without the format it belongs to', () => {
    const { format: _f, ...rest } = manifest();
    expect(parseManifest(JSON.stringify(rest))).toMatchObject({ ok: false, kind: 'unknown-format' });
  });
});
