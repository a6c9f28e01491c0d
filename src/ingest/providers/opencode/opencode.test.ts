/** What the OpenCode provider says of paths and roots, with no store opened. */
import { describe, expect, it } from 'vitest';
import { classifyPath, isSkippedFolder } from '../index.js';
import { opencode } from './index.js';

const DATA = '/home/u/.local/share/opencode';

describe('OpenCode provider', () => {
  it('keeps its sessions under XDG_DATA_HOME/opencode, else ~/.local/share/opencode, on every platform', () => {
    expect(opencode.defaultRoots({ HOME: '/home/u' }, 'linux')).toEqual([DATA]);
    expect(opencode.defaultRoots({ HOME: '/Users/u' }, 'darwin')).toEqual(['/Users/u/.local/share/opencode']);
    expect(opencode.defaultRoots({ HOME: '/home/u', XDG_DATA_HOME: '/x' }, 'linux')).toEqual(['/x/opencode']);
  });

  it('names the store of each of its files, and nothing else', () => {
    const storage = `${DATA}/storage`;
    for (const file of [
      `${storage}/session/4b0e/ses_1.json`,
      `${storage}/message/ses_1/msg_1.json`,
      `${storage}/part/msg_1/prt_1.json`,
    ])
      expect(classifyPath(file)).toMatchObject({ agent: 'opencode', store: storage, sessionId: null });
    expect(classifyPath(`${DATA}/opencode.db`)).toMatchObject({ store: `${DATA}/opencode.db` });
    expect(classifyPath(`${DATA}/opencode.db-wal`)).toMatchObject({ store: `${DATA}/opencode.db` });
    expect(classifyPath(`${DATA}/opencode-beta.db`)).toMatchObject({ store: `${DATA}/opencode-beta.db` });
    expect(classifyPath(`${storage}/project/4b0e.json`)).toBeNull();
    expect(classifyPath(`${storage}/session_diff/ses_1.json`)).toBeNull();
    expect(classifyPath(`${DATA}/auth.json`)).toBeNull();
  });

  it('does not walk its snapshots (git object stores)', () => {
    expect(isSkippedFolder(`${DATA}/snapshot`)).toBe(true);
    expect(isSkippedFolder(`${DATA}/storage`)).toBe(false);
    expect(isSkippedFolder('/home/u/.claude/projects/snapshot')).toBe(false);
  });
});
