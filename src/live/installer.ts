/**
 * `transcripts install|uninstall`: run the API as a user service (systemd `--user` on Linux,
 * launchd on macOS, written-out steps elsewhere), write `instance.env` (where it listens: the
 * file the CLI, the hooks and the UI dev server read), register the hooks; and undo exactly that.
 * What was installed is remembered in `<config>/install.json`.
 *
 * The service manager is called through `run`, so a machine without one (or without a user
 * session bus, as in containers) gets the files written and the exact commands to run later,
 * and tests can place files without touching a real service manager.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { dialHost } from '../config/api-url.js';
import { apiTokenFile, removeStoredApiToken, storeApiToken } from '../config/api-token.js';
import { isLoopbackHost } from '../config/env.js';
import { writeInstanceEnv } from '../config/instance-env.js';
import { makeDirs } from '../config/make-dirs.js';
import { envValue, homeDir, packageRoot, resolvePaths, type Env } from '../config/paths.js';
import { shellQuote, withHooksInstalled, withHooksRemoved } from './claude-settings.js';
import { applySettingsPlan, planSettingsChange } from './settings-file.js';
import {
  LAUNCHD_LABEL,
  launchdPlist,
  manualSteps,
  SYSTEMD_UNIT,
  systemdUnit,
  type ServiceSpec,
} from './service-unit.js';
import { unifiedDiff } from './text-diff.js';

export type RunResult = { code: number; stdout: string; stderr: string } | 'missing';
/** Runs a service-manager command; `'missing'` when the program is not installed. */
export type CommandRunner = (cmd: string, args: string[]) => Promise<RunResult>;

export function realRunner(): CommandRunner {
  return (cmd, args) =>
    new Promise((resolve) => {
      execFile(cmd, args, { timeout: 30_000 }, (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: string | number }) | null;
        if (e?.code === 'ENOENT') return resolve('missing');
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr });
      });
    });
}

export interface InstallerContext {
  platform: NodeJS.Platform;
  env: Env;
  run: CommandRunner;
  nodePath: string;
  binPath: string;
  uid: number;
  say(line: string): void;
}

/** The context of this process: its platform, Node, the package's CLI and the real runner. */
export function processInstallerContext(env: Env, say: (line: string) => void): InstallerContext {
  return {
    platform: process.platform,
    env,
    run: realRunner(),
    nodePath: process.execPath,
    binPath: join(packageRoot(), 'bin', 'transcripts.js'),
    uid: process.getuid?.() ?? 0,
    say,
  };
}

export interface InstallOptions {
  host: string;
  port: number;
  hooks: boolean;
  /** Enable and start the service through the service manager (false: files only). */
  start: boolean;
  dryRun: boolean;
  /** `<node> <bin> hook`; registered with the directories the service gets (hookCommandFor). */
  hookCommand: string;
  settingsFile: string;
}

export interface InstallManifest {
  v: 1;
  at: string;
  platform: string;
  host: string;
  port: number;
  serviceFile: string | null;
  envFile: string | null;
  hooks: { settingsFile: string } | null;
}

export class InstallError extends Error {
  override name = 'InstallError';
}

/** Environment the service must share with the CLI and hooks so all three use the same dirs. */
const CARRIED_ENV = ['CT_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'CT_STATIC_DIR', 'CT_ALLOWED_HOSTS'];
/**
 * Of that, what the hook needs: the config dir (instance.env, where the service listens) and the
 * data dir (the spool the service replays, the hook's log); and CT_API_URL, an instance elsewhere
 * (`hooks install --webapi`).
 */
const HOOK_ENV = ['CT_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'CT_API_URL'];

/**
 * The CARRIED_ENV variables set in `env`, as the service gets them. CT_HOME is made absolute: the
 * service and the hooks run in other working directories than the shell that installed them.
 */
export function carriedEnv(env: Env): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const k of CARRIED_ENV) {
    const v = envValue(env, k);
    if (v !== undefined) carried[k] = k === 'CT_HOME' ? resolve(v) : v;
  }
  return carried;
}

/**
 * The hook command with the directories the service was given (`CT_HOME=/x <node> <bin> hook`).
 * Claude Code runs hooks in its own environment, which need not hold the CT_HOME of the shell
 * that ran `install`: without it the hook would look for the API in another instance.env and
 * spool and log into another data dir than the service's.
 */
export function hookCommandFor(command: string, carried: Record<string, string>): string {
  const assignments = HOOK_ENV.filter((k) => carried[k] !== undefined).map(
    (k) => `${k}=${shellQuote(carried[k]!)}`,
  );
  return [...assignments, command].join(' ');
}

/**
 * Keeps the CT_API_TOKEN this shell has in `<config>/api-token` (mode 600) for the hook: Claude
 * Code runs it in the environment it was started with, which need not hold the token, and the
 * command in settings.json must not carry the secret. `url` is the API the hook dials: the token
 * is sent to that host alone. Nothing happens without CT_API_TOKEN.
 */
export function storeTokenForHook(env: Env, url: string, dryRun: boolean, say: (line: string) => void): void {
  const token = envValue(env, 'CT_API_TOKEN');
  if (token === undefined) return;
  const file = apiTokenFile(env);
  if (dryRun) say(`would store CT_API_TOKEN in ${file} (mode 600) for the hook, for ${url}`);
  else if (storeApiToken(file, token, url))
    say(
      `stored CT_API_TOKEN in ${file} (mode 600) for ${url}: the hook sends it there when its environment has none`,
    );
  else say(`${file}: CT_API_TOKEN already stored for ${url}`);
}

/** Removes the token `storeTokenForHook` kept, saying so. */
export function removeTokenForHook(env: Env, dryRun: boolean, say: (line: string) => void): void {
  const file = apiTokenFile(env);
  if (!existsSync(file)) return;
  if (!dryRun) removeStoredApiToken(file);
  say(`${dryRun ? 'would remove' : 'removed'} the stored API token ${file}`);
}

export function serviceFile(platform: NodeJS.Platform, env: Env): string | null {
  if (platform === 'linux')
    return join(
      envValue(env, 'XDG_CONFIG_HOME') ?? join(homeDir(env), '.config'),
      'systemd',
      'user',
      SYSTEMD_UNIT,
    );
  if (platform === 'darwin') return join(homeDir(env), 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  return null;
}

const manifestFile = (env: Env) => join(resolvePaths(env).configDir, 'install.json');

export async function readManifest(env: Env): Promise<InstallManifest | null> {
  try {
    const m = JSON.parse(await readFile(manifestFile(env), 'utf8')) as InstallManifest;
    return m?.v === 1 ? m : null;
  } catch {
    return null;
  }
}

/** Whether something already accepts connections on host:port (a `serve` started by hand?). */
function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: host === '0.0.0.0' ? '127.0.0.1' : host, port, timeout: 500 });
    const done = (v: boolean) => {
      socket.destroy();
      resolve(v);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

async function writeFileShown(
  ctx: InstallerContext,
  path: string,
  text: string,
  dryRun: boolean,
  mode?: number,
) {
  const before = await readFile(path, 'utf8').catch(() => '');
  if (before === text) {
    ctx.say(`${path}: up to date`);
    return;
  }
  if (dryRun) {
    ctx.say(`would write ${path}:`);
    ctx.say(unifiedDiff(before, text, [path, `${path} (after)`]));
    return;
  }
  await makeDirs(dirname(path));
  await writeFile(path, text, mode === undefined ? undefined : { mode });
  if (mode !== undefined) await chmod(path, mode);
  ctx.say(`wrote ${path}`);
}

function describeRun(r: RunResult): string {
  return r === 'missing'
    ? 'not installed'
    : (r.stderr || r.stdout).trim().split('\n')[0] || `exit code ${r.code}`;
}

/** Runs service-manager steps in order; on the first that cannot run, prints what to run by hand. */
async function manage(
  ctx: InstallerContext,
  steps: Array<[string, string[]]>,
  why: string,
): Promise<boolean> {
  for (const [cmd, args] of steps) {
    const r = await ctx.run(cmd, args);
    if (r !== 'missing' && r.code === 0) continue;
    ctx.say(
      r === 'missing'
        ? `${cmd} is not available here: ${why} was not done; the files are in place.`
        : `\`${cmd} ${args.join(' ')}\` failed (${describeRun(r)}): ${why} was not done; the files are in place.`,
    );
    ctx.say('Run these yourself where the service manager works:');
    for (const [c, a] of steps) ctx.say(`  ${c} ${a.join(' ')}`);
    return false;
  }
  return true;
}

export async function install(options: InstallOptions, ctx: InstallerContext): Promise<void> {
  const { env } = ctx;
  const paths = resolvePaths(env);
  const token = envValue(env, 'CT_API_TOKEN');
  if (!isLoopbackHost(options.host) && !token)
    throw new InstallError(
      `--host ${options.host} is reachable from other machines: set CT_API_TOKEN first (serve refuses otherwise)`,
    );
  const prefix = options.dryRun ? 'dry run: ' : '';
  if (await portAnswers(options.host, options.port))
    ctx.say(
      `${prefix}note: something already listens on ${options.host}:${options.port} (a \`transcripts serve\` started by hand?); the service cannot start until it stops`,
    );

  const carried = carriedEnv(env);
  const hookCommand = hookCommandFor(options.hookCommand, carried);
  const file = serviceFile(ctx.platform, env);
  const envFile = token && ctx.platform === 'linux' ? join(paths.configDir, 'service.env') : null;
  const spec: ServiceSpec = {
    nodePath: ctx.nodePath,
    binPath: ctx.binPath,
    host: options.host,
    port: options.port,
    env: carried,
    ...(envFile ? { envFile } : {}),
    logFile: join(paths.dataDir, 'serve.log'),
  };

  // 1. The service definition.
  if (ctx.platform === 'linux') {
    if (envFile) await writeFileShown(ctx, envFile, `CT_API_TOKEN=${token}\n`, options.dryRun, 0o600);
    await writeFileShown(ctx, file!, systemdUnit(spec), options.dryRun);
  } else if (ctx.platform === 'darwin') {
    if (!options.dryRun) await makeDirs(paths.dataDir);
    await writeFileShown(
      ctx,
      file!,
      launchdPlist(spec, token ? { CT_API_TOKEN: token } : {}),
      options.dryRun,
      token ? 0o600 : undefined,
    );
  } else {
    for (const l of manualSteps(spec)) ctx.say(l);
  }

  // 2. Where it listens, for the CLI, the hooks and the UI dev server.
  if (options.dryRun)
    ctx.say(`would write ${paths.instanceEnvFile}: WEBAPI_HOST=${options.host} WEBAPI_PORT=${options.port}`);
  else {
    writeInstanceEnv(
      paths.instanceEnvFile,
      { WEBAPI_HOST: options.host, WEBAPI_PORT: options.port },
      '`transcripts install` (the service rewrites it when it starts)',
    );
    ctx.say(`wrote ${paths.instanceEnvFile} (WEBAPI_HOST=${options.host}, WEBAPI_PORT=${options.port})`);
  }

  // 3. The hooks.
  if (options.hooks) {
    const plan = await planSettingsChange(options.settingsFile, (s) => withHooksInstalled(s, hookCommand));
    if (!plan.changed) ctx.say(`hooks: already registered in ${options.settingsFile}`);
    else if (options.dryRun) {
      ctx.say(`would register the hooks in ${options.settingsFile}:`);
      ctx.say(
        unifiedDiff(plan.before ?? '', plan.after, [options.settingsFile, `${options.settingsFile} (after)`]),
      );
    } else {
      const { backup } = await applySettingsPlan(plan);
      ctx.say(
        `hooks: registered for ${plan.events.length} event(s) in ${options.settingsFile}${backup ? ` (backup: ${backup})` : ''}`,
      );
    }
    storeTokenForHook(env, `http://${dialHost(options.host)}:${options.port}`, options.dryRun, ctx.say);
  } else ctx.say('hooks: not registered (--no-hooks); `transcripts hooks install` does it later');

  if (options.dryRun) {
    if (file && options.start)
      ctx.say(
        `would enable and start the service (${ctx.platform === 'linux' ? 'systemctl --user' : 'launchctl'})`,
      );
    return;
  }
  const manifest: InstallManifest = {
    v: 1,
    at: new Date().toISOString(),
    platform: ctx.platform,
    host: options.host,
    port: options.port,
    serviceFile: file,
    envFile,
    hooks: options.hooks ? { settingsFile: options.settingsFile } : null,
  };
  await makeDirs(paths.configDir);
  await writeFile(manifestFile(env), `${JSON.stringify(manifest, null, 2)}\n`);

  // 4. Start it.
  if (!file) return;
  if (!options.start) {
    ctx.say('service: not started (--no-start)');
    return;
  }
  const started =
    ctx.platform === 'linux'
      ? await manage(
          ctx,
          [
            ['systemctl', ['--user', 'daemon-reload']],
            ['systemctl', ['--user', 'enable', '--now', SYSTEMD_UNIT]],
          ],
          'enabling and starting the service',
        )
      : await (async () => {
          // A previous install may still be loaded; unloading fails harmlessly when it is not.
          await ctx.run('launchctl', ['bootout', `gui/${ctx.uid}/${LAUNCHD_LABEL}`]);
          return manage(ctx, [['launchctl', ['bootstrap', `gui/${ctx.uid}`, file]]], 'loading the agent');
        })();
  if (started) {
    ctx.say(
      `service: running; UI at http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${options.port}/app/`,
    );
    if (ctx.platform === 'linux')
      ctx.say(
        `to keep it running while you are logged out: loginctl enable-linger ${envValue(env, 'USER') ?? '$USER'}`,
      );
  }
}

export interface UninstallOptions {
  /** Also delete the data dir and the config dir (the caller has confirmed). */
  purge: boolean;
  keepHooks: boolean;
  /** Stop and disable the service through the service manager (false: files only). */
  stop: boolean;
  dryRun: boolean;
  settingsFile: string;
}

export async function uninstall(options: UninstallOptions, ctx: InstallerContext): Promise<void> {
  const { env } = ctx;
  const paths = resolvePaths(env);
  const manifest = await readManifest(env);
  const file = manifest?.serviceFile ?? serviceFile(ctx.platform, env);
  const would = options.dryRun ? 'would ' : '';

  if (file) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text !== null && !text.includes('transcripts install'))
      ctx.say(`${file} was not written by \`transcripts install\`: left alone`);
    else if (text !== null) {
      if (options.stop && !options.dryRun) {
        if (ctx.platform === 'linux')
          await manage(
            ctx,
            [['systemctl', ['--user', 'disable', '--now', SYSTEMD_UNIT]]],
            'stopping the service',
          );
        else if (ctx.platform === 'darwin')
          await manage(
            ctx,
            [['launchctl', ['bootout', `gui/${ctx.uid}/${LAUNCHD_LABEL}`]]],
            'unloading the agent',
          );
      }
      if (!options.dryRun) await rm(file, { force: true });
      ctx.say(`${would}remove ${file}`);
      if (options.stop && !options.dryRun && ctx.platform === 'linux')
        await manage(ctx, [['systemctl', ['--user', 'daemon-reload']]], 'reloading systemd');
    }
  }

  if (!options.keepHooks) {
    const plan = await planSettingsChange(options.settingsFile, withHooksRemoved);
    if (!plan.changed) ctx.say(`hooks: none in ${options.settingsFile}`);
    else if (options.dryRun) {
      ctx.say(`would remove the hooks from ${options.settingsFile}:`);
      ctx.say(
        unifiedDiff(plan.before ?? '', plan.after, [options.settingsFile, `${options.settingsFile} (after)`]),
      );
    } else {
      const { backup } = await applySettingsPlan(plan);
      ctx.say(`hooks: removed from ${options.settingsFile}${backup ? ` (backup: ${backup})` : ''}`);
    }
    removeTokenForHook(env, options.dryRun, ctx.say);
  }

  for (const f of [
    paths.instanceEnvFile,
    manifest?.envFile ?? join(paths.configDir, 'service.env'),
    manifestFile(env),
  ]) {
    const exists = await readFile(f).then(
      () => true,
      () => false,
    );
    if (!exists) continue;
    if (!options.dryRun) await rm(f, { force: true });
    ctx.say(`${would}remove ${f}`);
  }

  if (options.purge) {
    for (const dir of [paths.dataDir, paths.configDir]) {
      if (!options.dryRun) await rm(dir, { recursive: true, force: true });
      ctx.say(`${would}delete ${dir}${dir === paths.dataDir ? ' (all recorded history)' : ''}`);
    }
  } else ctx.say(`kept your history in ${paths.dataDir} (--purge deletes it)`);
}
