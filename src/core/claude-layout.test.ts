import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../../test/support/paths.js';
import { encodeProjectDir, layoutFiles } from './claude-layout.js';

interface ManifestFile {
  dest: string;
  path: string;
}

/** Every `cwd` a transcript's lines record, with the directories above each. */
function cwdsOf(file: string): Set<string> {
  const cwds = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
      if (typeof cwd === 'string')
        for (let d = cwd; d !== path.posix.dirname(d); d = path.posix.dirname(d)) cwds.add(d);
    } catch {
      // a broken line: the next one may say
    }
  }
  return cwds;
}

describe('encodeProjectDir', () => {
  it("gives the directory name Claude Code gave each corpus session's projects folder", () => {
    const manifest = JSON.parse(
      readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8'),
    ) as ManifestFile[];
    let checked = 0;
    for (const f of manifest) {
      // Files copied from a real `projects/<name>/` tree show the name (test fixtures rename theirs).
      const m = /(?:^|\/)projects\/(-[^/]+)\/[^/]+\.jsonl$/.exec(f.path);
      if (!m) continue;
      const cwds = cwdsOf(path.join(corpusDir, f.dest));
      if (cwds.size === 0) continue; // summary-only and empty files record none
      // The folder is named after the directory Claude Code started in; a session may `cd` below it.
      expect([...cwds].map(encodeProjectDir), f.dest).toContain(m[1]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('turns every character but ASCII letters and digits into a dash', () => {
    expect(encodeProjectDir('/Users/mock_user/my app/ü.x')).toBe('-Users-mock-user-my-app---x');
    expect(encodeProjectDir('C:\\src\\app')).toBe('C--src-app');
  });
});

describe('layoutFiles', () => {
  it('puts the main transcript beside its subagents folder, and skips other objects', () => {
    const files = layoutFiles(
      { id: 'abc', cwd: '/home/me/app' },
      ['transcript.jsonl', 'subagents/agent-a1.jsonl', 'notes/x.txt'],
      '/h/.claude/projects',
    );
    expect(files).toEqual([
      { objectName: 'transcript.jsonl', path: '/h/.claude/projects/-home-me-app/abc.jsonl' },
      {
        objectName: 'subagents/agent-a1.jsonl',
        path: '/h/.claude/projects/-home-me-app/abc/subagents/agent-a1.jsonl',
      },
    ]);
  });
});
