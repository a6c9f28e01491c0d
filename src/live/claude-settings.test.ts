import { describe, expect, it } from 'vitest';
import {
  formatSettings,
  HOOK_EVENTS,
  hookCommand,
  isOurCommand,
  parseSettings,
  readRegistration,
  SettingsShapeError,
  withHooksInstalled,
  withHooksRemoved,
  type Settings,
} from './claude-settings.js';
import { unifiedDiff } from './text-diff.js';

const CMD = hookCommand('/usr/bin/node', '/opt/transcripts/bin/transcripts.js');

/** Another tool's hooks, including one that shares an event and a matcher group layout with ours. */
const otherTools: Settings = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/guard.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    CustomEvent: [{ hooks: [{ type: 'command', command: 'other-tool hook' }] }],
  },
};

describe('claude settings: hook entries', () => {
  it('recognises our command by any path', () => {
    expect(isOurCommand(CMD)).toBe(true);
    expect(isOurCommand('transcripts hook')).toBe(true);
    expect(isOurCommand("'/a b/bin/transcripts.js' hook")).toBe(true);
    expect(isOurCommand('npx transcripts hook --x')).toBe(true);
    expect(isOurCommand('transcripts-other hook')).toBe(false);
    expect(isOurCommand('/bin/mytranscripts hook')).toBe(false);
    expect(isOurCommand('transcripts hooks install')).toBe(false);
    expect(hookCommand('/n o/node', "/it's/t.js")).toBe(`'/n o/node' '/it'\\''s/t.js' hook`);
  });

  it('installs one entry per event, leaving other tools alone', () => {
    const r = withHooksInstalled(otherTools, CMD);
    expect(r.changed).toBe(true);
    expect(r.events.sort()).toEqual([...HOOK_EVENTS].sort());
    const hooks = r.settings.hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toEqual([
      (otherTools.hooks as Record<string, unknown[]>).PreToolUse![0],
      { matcher: '*', hooks: [{ type: 'command', command: CMD, timeout: 30 }] },
    ]);
    expect(hooks.SessionEnd).toEqual([{ hooks: [{ type: 'command', command: CMD, timeout: 30 }] }]);
    expect(hooks.CustomEvent).toEqual((otherTools.hooks as Record<string, unknown[]>).CustomEvent);
    expect(r.settings.permissions).toEqual(otherTools.permissions);
    const reg = readRegistration(r.settings);
    expect(reg).toMatchObject({ missing: [], duplicated: [], others: 3 });
  });

  it('is idempotent, and replaces a stale command in place of adding another', () => {
    const once = withHooksInstalled(otherTools, CMD).settings;
    const twice = withHooksInstalled(once, CMD);
    expect(twice.changed).toBe(false);
    expect(twice.settings).toBe(once);
    const moved = withHooksInstalled(once, hookCommand('/usr/bin/node', '/new/place/bin/transcripts.js'));
    expect(moved.changed).toBe(true);
    const reg = readRegistration(moved.settings);
    expect(reg.duplicated).toEqual([]);
    expect(reg.ours.Stop).toEqual(['/usr/bin/node /new/place/bin/transcripts.js hook']);
  });

  it('keeps other commands that share a group with ours, and removes doubles', () => {
    const shared: Settings = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'notify-send done' },
              { type: 'command', command: 'transcripts hook' },
            ],
          },
          { hooks: [{ type: 'command', command: CMD }] },
        ],
      },
    };
    expect(readRegistration(shared).duplicated).toEqual(['Stop']);
    const r = withHooksInstalled(shared, CMD, ['Stop']);
    expect((r.settings.hooks as Record<string, unknown>).Stop).toEqual([
      { hooks: [{ type: 'command', command: 'notify-send done' }] },
      { hooks: [{ type: 'command', command: CMD, timeout: 30 }] },
    ]);
  });

  it('uninstalls ours only, and drops what it emptied', () => {
    const installed = withHooksInstalled(otherTools, CMD).settings;
    const r = withHooksRemoved(installed);
    expect(r.changed).toBe(true);
    expect(r.settings).toEqual(otherTools);
    expect(withHooksRemoved(r.settings).changed).toBe(false);
    const alone = withHooksRemoved(withHooksInstalled({}, CMD).settings);
    expect(alone.settings).toEqual({});
  });

  it('refuses settings it cannot merge safely', () => {
    expect(() => parseSettings('{"hooks": ')).toThrow(SettingsShapeError);
    expect(() => parseSettings('[1]')).toThrow(/not a JSON object/);
    expect(parseSettings('')).toEqual({});
    expect(() => withHooksInstalled({ hooks: [] }, CMD)).toThrow(/"hooks" is not an object/);
    expect(() => withHooksInstalled({ hooks: { Stop: {} } }, CMD)).toThrow(/"hooks.Stop" is not an array/);
  });

  it('writes in the file’s own indentation and shows the change as a diff', () => {
    const original = '{\n    "model": "opus"\n}\n';
    const after = formatSettings(
      withHooksInstalled(parseSettings(original), CMD, ['Stop']).settings,
      original,
    );
    expect(after).toMatch(/^\{\n {4}"model": "opus",\n {4}"hooks": \{/);
    const diff = unifiedDiff(original, after, ['a', 'b']);
    expect(diff).toMatch(/^--- a\n\+\+\+ b\n/);
    expect(diff).toContain('-    "model": "opus"');
    expect(diff).toContain('+    "model": "opus",');
    expect(diff).toContain(`+                        "command": "${CMD}",`);
    expect(unifiedDiff(original, original, ['a', 'b'])).toBe('');
  });
});
