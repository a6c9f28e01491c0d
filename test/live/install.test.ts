/**
 * `transcripts install|uninstall`. On this Linux machine through the built CLI: the systemd --user
 * unit is written where systemd looks, instance.env and the hooks follow, and when systemctl is
 * missing or has no user bus (containers) the output says so and lists the commands to run.
 * The macOS and "elsewhere" layouts run in process with the platform given (launchctl is absent
 * here, which exercises the same "not available" path).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { install, realRunner, uninstall } from '../../src/live/installer.js';
import { cleanEnv, runCli } from '../support/api-server.js';

function home(extra: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ct-install-'));
  // No user bus: systemctl --user must never reach the developer's real user manager.
  const env = cleanEnv({
    HOME: dir,
    DBUS_SESSION_BUS_ADDRESS: undefined,
    XDG_RUNTIME_DIR: undefined,
    ...extra,
  });
  return {
    dir,
    env,
    unit: path.join(dir, '.config', 'systemd', 'user', 'transcripts.service'),
    instanceEnv: path.join(dir, '.config', 'transcripts', 'instance.env'),
    settings: path.join(dir, '.claude', 'settings.json'),
    dataDir: path.join(dir, '.local', 'share', 'transcripts'),
  };
}

describe.runIf(process.platform === 'linux')('transcripts install on Linux', () => {
  it('writes the unit, instance.env and the hooks; says what to run when systemctl cannot', async () => {
    const h = home();
    const dry = await runCli(['install', '--port', '17788', '--dry-run'], { env: h.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would write ${h.unit}`);
    expect(existsSync(h.unit) || existsSync(h.instanceEnv) || existsSync(h.settings)).toBe(false);

    const r = await runCli(['install', '--port', '17788'], { env: h.env });
    expect(r.code, r.stderr).toBe(0);
    const unit = readFileSync(h.unit, 'utf8');
    expect(unit).toMatch(
      /^ExecStart=".*node.*" ".*\/bin\/transcripts\.js" "serve" "--host" "127\.0\.0\.1" "--port" "17788"$/m,
    );
    expect(readFileSync(h.instanceEnv, 'utf8')).toMatch(/WEBAPI_HOST=127\.0\.0\.1\nWEBAPI_PORT=17788/);
    expect(readFileSync(h.settings, 'utf8')).toMatch(/transcripts\.js hook/);
    // systemctl is there but has no user bus (or is missing): the output says so and what to run.
    expect(r.stdout).toMatch(/systemctl( is not available here|.*failed \()/);
    expect(r.stdout).toContain('systemctl --user enable --now transcripts.service');

    const again = await runCli(['install', '--port', '17788', '--no-start'], { env: h.env });
    expect(again.stdout).toContain(`${h.unit}: up to date`);
    expect(again.stdout).toMatch(/hooks: already registered/);
    expect(again.stdout).toContain('service: not started (--no-start)');
  });

  it('the hooks get the CT_HOME the service gets, so they record into its data dir from any environment', async () => {
    const h = home({ PATH: '/nonexistent' });
    const ctHome = path.join(h.dir, 'elsewhere');
    const env = { ...h.env, CT_HOME: ctHome };
    const dry = await runCli(['install', '--port', '17790', '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`+Environment="CT_HOME=${ctHome}"`);
    expect(dry.stdout).toMatch(
      new RegExp(`^\\+ *"command": "CT_HOME=${ctHome}.* .*/bin/transcripts\\.js hook",$`, 'm'),
    );
    expect(existsSync(h.settings)).toBe(false);

    const r = await runCli(['install', '--port', '17790'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(h.unit, 'utf8')).toContain(`Environment="CT_HOME=${ctHome}"`);
    const commands = new Set<string>();
    for (const groups of Object.values(JSON.parse(readFileSync(h.settings, 'utf8')).hooks) as Array<
      Array<{ hooks: Array<{ command: string }> }>
    >)
      for (const g of groups) for (const e of g.hooks) commands.add(e.command);
    expect(commands.size).toBe(1);
    const command = [...commands][0]!;
    expect(command.startsWith(`CT_HOME=${ctHome} `)).toBe(true);

    // Claude Code runs the command through a shell, in its own environment: no CT_HOME there.
    const hookEnv = cleanEnv({ HOME: h.dir });
    expect(hookEnv.CT_HOME).toBeUndefined();
    const payload = JSON.stringify({
      session_id: 'install-hook-env',
      hook_event_name: 'SessionStart',
      cwd: h.dir,
    });
    const ran = spawnSync('/bin/sh', ['-c', command], { env: hookEnv, input: payload, encoding: 'utf8' });
    expect(ran.status, ran.stderr).toBe(0);
    // It read the service's instance.env (the port installed) and logged and spooled in its data dir.
    const log = readFileSync(path.join(ctHome, 'data', 'live', 'hook.log'), 'utf8')
      .trim()
      .split('\n');
    const last = JSON.parse(log[log.length - 1]!);
    expect(last).toMatchObject({ event: 'SessionStart', api: 'http://127.0.0.1:17790', outcome: 'spooled' });
    expect(existsSync(h.dataDir)).toBe(false); // not the default data dir of that HOME

    // Uninstall finds the hooks with their environment in front, and removes them.
    const un = await runCli(['uninstall', '--no-stop'], { env });
    expect(un.code, un.stderr).toBe(0);
    expect(JSON.parse(readFileSync(h.settings, 'utf8'))).toEqual({});
  });

  it('says plainly when systemctl is not installed', async () => {
    const h = home({ PATH: '/nonexistent' });
    const r = await runCli(['install', '--no-hooks'], { env: h.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'systemctl is not available here: enabling and starting the service was not done; the files are in place.',
    );
    expect(r.stdout).toContain('  systemctl --user daemon-reload');
    expect(r.stdout).toMatch(/hooks: not registered \(--no-hooks\)/);
    expect(existsSync(h.unit)).toBe(true);
    expect(existsSync(h.settings)).toBe(false);
  });

  it('uninstall removes what install added and keeps the history unless --purge (confirmed)', async () => {
    const h = home({ PATH: '/nonexistent' });
    expect((await runCli(['install'], { env: h.env })).code).toBe(0);
    mkdirSync(h.dataDir, { recursive: true });
    writeFileSync(path.join(h.dataDir, 'transcripts.db'), 'history');
    const settingsBefore = JSON.parse(readFileSync(h.settings, 'utf8'));
    expect(Object.keys(settingsBefore.hooks).length).toBeGreaterThan(0);

    const dry = await runCli(['uninstall', '--dry-run'], { env: h.env });
    expect(dry.stdout).toContain(`would remove ${h.unit}`);
    expect(existsSync(h.unit)).toBe(true);

    const r = await runCli(['uninstall'], { env: h.env });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(h.unit)).toBe(false);
    expect(existsSync(h.instanceEnv)).toBe(false);
    expect(JSON.parse(readFileSync(h.settings, 'utf8'))).toEqual({});
    expect(r.stdout).toContain(`kept your history in ${h.dataDir}`);
    expect(readFileSync(path.join(h.dataDir, 'transcripts.db'), 'utf8')).toBe('history');

    const unconfirmed = await runCli(['uninstall', '--purge'], { env: h.env });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--purge deletes .* add --yes/);
    expect(existsSync(h.dataDir)).toBe(true);
    const purged = await runCli(['uninstall', '--purge', '--yes'], { env: h.env });
    expect(purged.code, purged.stderr).toBe(0);
    expect(existsSync(h.dataDir)).toBe(false);
  });

  it('with CT_API_TOKEN: service.env for the service, api-token for the hooks (both mode 600); uninstall removes both', async () => {
    const h = home({ CT_API_TOKEN: 'install-token-123' });
    const r = await runCli(['install', '--port', '17790', '--no-start'], { env: h.env });
    expect(r.code, r.stderr).toBe(0);
    const configDir = path.dirname(h.instanceEnv);
    const tokenFile = path.join(configDir, 'api-token');
    expect(r.stdout).toContain(`stored CT_API_TOKEN in ${tokenFile} (mode 600)`);
    expect(readFileSync(tokenFile, 'utf8')).toBe('install-token-123\nhttp://127.0.0.1:17790\n');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(configDir, 'service.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(h.settings, 'utf8')).not.toContain('install-token-123');

    const kept = await runCli(['uninstall', '--keep-hooks', '--no-stop'], { env: h.env });
    expect(kept.code, kept.stderr).toBe(0);
    expect(existsSync(tokenFile)).toBe(true);
    const r2 = await runCli(['uninstall', '--no-stop'], { env: h.env });
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).toContain(`removed the stored API token ${tokenFile}`);
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('refuses a non-loopback host without a token, and a port of 0', async () => {
    const h = home();
    const open = await runCli(['install', '--host', '0.0.0.0'], { env: h.env });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('CT_API_TOKEN');
    expect((await runCli(['install', '--port', '0'], { env: h.env })).code).toBe(2);
  });
});

describe('transcripts install elsewhere', () => {
  const ctx = (h: ReturnType<typeof home>, platform: NodeJS.Platform, lines: string[]) => ({
    platform,
    env: h.env,
    run: realRunner(),
    nodePath: '/usr/bin/node',
    binPath: '/opt/transcripts/bin/transcripts.js',
    uid: 501,
    say: (l: string) => lines.push(l),
  });
  const opts = (h: ReturnType<typeof home>) => ({
    host: '127.0.0.1',
    port: 17789,
    hooks: false,
    start: true,
    dryRun: false,
    hookCommand: 'transcripts hook',
    settingsFile: h.settings,
  });

  it.runIf(process.platform !== 'darwin')(
    'macOS: a launchd agent in ~/Library/LaunchAgents, loaded by launchctl when there is one',
    async () => {
      const h = home();
      const lines: string[] = [];
      await install(opts(h), ctx(h, 'darwin', lines));
      const plist = path.join(h.dir, 'Library', 'LaunchAgents', 'dev.transcripts.api.plist');
      const text = readFileSync(plist, 'utf8');
      expect(text).toContain('<string>/opt/transcripts/bin/transcripts.js</string>');
      expect(text).toContain('<string>17789</string>');
      expect(lines.join('\n')).toContain('launchctl is not available here');
      expect(lines.join('\n')).toContain(`launchctl bootstrap gui/501 ${plist}`);
      const out: string[] = [];
      await uninstall(
        { purge: false, keepHooks: false, stop: true, dryRun: false, settingsFile: h.settings },
        ctx(h, 'darwin', out),
      );
      expect(existsSync(plist)).toBe(false);
    },
  );

  it('a relative CT_HOME reaches the service and the hooks as an absolute path', async () => {
    const h = home();
    const relative = path.relative(process.cwd(), path.join(h.dir, 'rel-home'));
    h.env.CT_HOME = relative;
    const lines: string[] = [];
    await install({ ...opts(h), hooks: true }, ctx(h, 'win32', lines));
    const absolute = path.resolve(relative);
    expect(lines).toContain(`  environment: CT_HOME=${absolute}`);
    const settings = JSON.parse(readFileSync(h.settings, 'utf8'));
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(`CT_HOME=${absolute} transcripts hook`);
    expect(existsSync(path.join(absolute, 'config', 'instance.env'))).toBe(true);
  });

  it('other systems: manual steps, and instance.env all the same', async () => {
    const h = home();
    const lines: string[] = [];
    await install(opts(h), ctx(h, 'win32', lines));
    expect(lines.join('\n')).toMatch(/No systemd or launchd here/);
    expect(lines.join('\n')).toContain(
      '/usr/bin/node /opt/transcripts/bin/transcripts.js serve --host 127.0.0.1 --port 17789',
    );
    expect(readFileSync(h.instanceEnv, 'utf8')).toContain('WEBAPI_PORT=17789');
  });
});
