/**
 * `transcripts hooks install|uninstall|status` on ~/.claude/settings.json (the built CLI, HOME in
 * a temp dir): other tools' hooks stay as they are, a backup comes first, a second install
 * changes nothing, a missing file is created, a dry run writes nothing, uninstall restores the
 * other tools' file exactly.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../src/live/claude-settings.js';
import { cleanEnv, runCli } from '../support/api-server.js';

const OTHER_TOOLS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'], deny: [] },
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/guard.sh', timeout: 5 }] },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send "Claude is done"' }] }],
    Notification: [{ matcher: '', hooks: [{ type: 'command', command: 'say hello' }] }],
  },
};

function home() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ct-hooks-'));
  const env = cleanEnv({ HOME: dir, CT_HOME: path.join(dir, 'ct') });
  const settings = path.join(dir, '.claude', 'settings.json');
  return { dir, env, settings };
}

const backups = (settings: string) =>
  readdirSync(path.dirname(settings)).filter((n) => n.includes('transcripts-backup'));

describe('transcripts hooks install', () => {
  it("merges into a settings file with other tools' hooks, after a backup, and only once", async () => {
    const h = home();
    mkdirSync(path.dirname(h.settings), { recursive: true });
    const original = `${JSON.stringify(OTHER_TOOLS, null, 2)}\n`;
    writeFileSync(h.settings, original);

    const dry = await runCli(['hooks', 'install', '--dry-run'], { env: h.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dry run: would register .* for 11 event\(s\)/);
    expect(dry.stdout).toMatch(/^\+.*"command": ".*transcripts\.js hook"/m);
    expect(readFileSync(h.settings, 'utf8')).toBe(original);
    expect(backups(h.settings)).toEqual([]);

    const first = await runCli(['hooks', 'install'], { env: h.env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/registered .* for 11 event\(s\)/);
    expect(backups(h.settings)).toHaveLength(1);
    expect(readFileSync(path.join(path.dirname(h.settings), backups(h.settings)[0]!), 'utf8')).toBe(original);
    const after = JSON.parse(readFileSync(h.settings, 'utf8'));
    expect(after.model).toBe('opus');
    expect(after.permissions).toEqual(OTHER_TOOLS.permissions);
    expect(after.hooks.PreToolUse[0]).toEqual(OTHER_TOOLS.hooks.PreToolUse[0]);
    expect(after.hooks.Stop[0]).toEqual(OTHER_TOOLS.hooks.Stop[0]);
    for (const event of HOOK_EVENTS)
      expect(JSON.stringify(after.hooks[event]), event).toMatch(/transcripts\.js hook/);

    const second = await runCli(['hooks', 'install'], { env: h.env });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/already registered for all 11 events .*: nothing to change/);
    expect(backups(h.settings)).toHaveLength(1);

    const status = await runCli(['hooks', 'status'], { env: h.env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/registered: 11\/11 events/);
    expect(status.stdout).toMatch(/other tools' hooks: 3 \(left alone\)/);
    expect(status.stdout).toMatch(/calls: none logged yet/);
    expect(status.stdout).not.toMatch(/BROKEN/);

    const un = await runCli(['hooks', 'uninstall'], { env: h.env });
    expect(un.code, un.stderr).toBe(0);
    expect(un.stdout).toMatch(/removed transcripts hooks from 11 event\(s\)/);
    expect(JSON.parse(readFileSync(h.settings, 'utf8'))).toEqual(OTHER_TOOLS);
    expect((await runCli(['hooks', 'status'], { env: h.env })).stdout).toMatch(
      /registered: 0\/11 events \(run `transcripts hooks install`\)/,
    );
    expect((await runCli(['hooks', 'uninstall'], { env: h.env })).stdout).toMatch(/nothing to change/);
  });

  it('creates a missing settings file (and ~/.claude), without a backup', async () => {
    const h = home();
    const r = await runCli(['hooks', 'install'], { env: h.env });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(h.settings)).toBe(true);
    expect(backups(h.settings)).toEqual([]);
    expect(Object.keys(JSON.parse(readFileSync(h.settings, 'utf8')).hooks).sort()).toEqual(
      [...HOOK_EVENTS].sort(),
    );
  });

  it('writes through a symlinked settings file, and refuses one it cannot parse', async () => {
    const h = home();
    const real = path.join(h.dir, 'dotfiles', 'claude-settings.json');
    mkdirSync(path.dirname(real), { recursive: true });
    writeFileSync(real, '{\n    "model": "sonnet"\n}\n');
    mkdirSync(path.dirname(h.settings), { recursive: true });
    symlinkSync(real, h.settings);
    expect((await runCli(['hooks', 'install'], { env: h.env })).code).toBe(0);
    expect(lstatSync(h.settings).isSymbolicLink()).toBe(true);
    // Its own four-space indentation is kept.
    expect(readFileSync(real, 'utf8')).toMatch(/^\{\n {4}"model": "sonnet",\n {4}"hooks"/);

    writeFileSync(real, '{ "model": "sonnet", // a comment\n}');
    const bad = await runCli(['hooks', 'install'], { env: h.env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/settings\.json: it is not valid JSON .*fix it by hand first/);
    expect(readFileSync(real, 'utf8')).toBe('{ "model": "sonnet", // a comment\n}');
  });

  it('registers the hook with the CT_HOME of this shell (none without one); --command as given', async () => {
    const h = home();
    const ct = h.env.CT_HOME!;
    expect((await runCli(['hooks', 'install'], { env: h.env })).code).toBe(0);
    const command = (file: string) =>
      JSON.parse(readFileSync(file, 'utf8')).hooks.SessionEnd[0].hooks[0].command as string;
    expect(command(h.settings)).toMatch(
      new RegExp(`^CT_HOME=${ct} \\S*node\\S* \\S*/bin/transcripts\\.js hook$`),
    );
    // The status reads it as ours and its node and script as present.
    const status = await runCli(['hooks', 'status'], { env: h.env });
    expect(status.stdout).toMatch(/registered: 11\/11 events/);
    expect(status.stdout).not.toContain('BROKEN');

    const plain = home();
    const env = { ...plain.env };
    delete env.CT_HOME;
    expect((await runCli(['hooks', 'install'], { env })).code).toBe(0);
    expect(command(plain.settings)).toMatch(/^\S*node\S* \S*\/bin\/transcripts\.js hook$/);

    const given = home();
    const r = await runCli(['hooks', 'install', '--command', 'transcripts hook'], { env: given.env });
    expect(r.code, r.stderr).toBe(0);
    expect(command(given.settings)).toBe('transcripts hook');
  });

  it('notices a registered command whose node or script is gone', async () => {
    const h = home();
    expect(
      (
        await runCli(['hooks', 'install', '--command', '/no/such/node /no/such/transcripts.js hook'], {
          env: h.env,
        })
      ).code,
    ).toBe(0);
    const status = await runCli(['hooks', 'status'], { env: h.env });
    expect(status.stdout).toMatch(/BROKEN: \/no\/such\/node, \/no\/such\/transcripts\.js no longer exist/);
  });
});
