import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listModes, looseModes, makePrivate, octal, usePrivateUmask } from './private-files.js';

const dir = mkdtempSync(join(tmpdir(), 'ct-private-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('private files', () => {
  it('finds what others can reach, makes it private, and leaves links alone', () => {
    const data = join(dir, 'data');
    mkdirSync(join(data, 'objects'), { recursive: true });
    writeFileSync(join(data, 'transcripts.db'), '');
    writeFileSync(join(data, 'objects', 'a.jsonl'), '');
    writeFileSync(join(data, 'mine'), '');
    symlinkSync('/etc/hostname', join(data, 'link'));
    chmodSync(data, 0o755);
    chmodSync(join(data, 'objects'), 0o750);
    chmodSync(join(data, 'transcripts.db'), 0o644);
    chmodSync(join(data, 'objects', 'a.jsonl'), 0o604);
    chmodSync(join(data, 'mine'), 0o600);
    const loose = looseModes(data);
    expect(loose.map((l) => [l.path.slice(data.length), l.kind, octal(l.mode)])).toEqual([
      ['', 'dir', '0755'],
      ['/objects', 'dir', '0750'],
      ['/objects/a.jsonl', 'file', '0604'],
      ['/transcripts.db', 'file', '0644'],
    ]);
    expect(listModes(loose, 2)).toBe(`${data} (0755), ${data}/objects (0750) and 2 more`);
    const { changed, failed } = makePrivate(data);
    expect(changed).toHaveLength(4);
    expect(failed).toEqual([]);
    expect(looseModes(data)).toEqual([]);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(data, 'transcripts.db')).mode & 0o777).toBe(0o600);
    expect(looseModes(join(dir, 'absent'))).toEqual([]);
  });

  it('sets a umask that masks group and others, keeping what the old one masked', () => {
    const before = process.umask(0o022);
    try {
      usePrivateUmask();
      expect(process.umask(0o022)).toBe(0o077);
      process.umask(0o027);
      usePrivateUmask();
      expect(process.umask(0o022)).toBe(0o077);
    } finally {
      process.umask(before);
    }
  });
});
