/**
 * Doctor's check of the user service `transcripts install` sets up: is its file there, does it
 * run a node and a package that exist, with the dirs this CLI uses, and what does the service
 * manager say of it. The manager is only asked read-only questions (`systemctl --user show`,
 * `launchctl print`), only when the file exists, and given 3 s.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type Env, resolvePaths } from '../../../config/paths.js';
import { readManifest, serviceFile } from '../../../live/installer.js';
import { LAUNCHD_LABEL, SYSTEMD_UNIT } from '../../../live/service-unit.js';
import { check, type CheckResult } from './check.js';

export interface ServiceFacts {
  platform: NodeJS.Platform;
  /** Where `install` puts the service file here; null on other systems. */
  file: string | null;
  /** Its text; null when there is none. */
  text: string | null;
  /** The service file install.json says it wrote, if any. */
  installedFile: string | null;
  uid: number;
  /** What the service manager said: systemd's properties or launchd's state, or why it could not. */
  manager: { ok: true; props: Record<string, string> } | { ok: false; error: string } | null;
}

/** Runs a read-only question in `env` (the CLI's, so a sandboxed HOME never reaches the user's manager). */
function ask(
  cmd: string,
  args: string[],
  env: Env,
): Promise<{ ok: true; out: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 3000, env: env as NodeJS.ProcessEnv }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, out: stdout });
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      const why =
        e.code === 'ENOENT'
          ? `${cmd} is not installed`
          : e.killed
            ? `${cmd} gave no answer within 3 s`
            : (stderr || stdout).trim().split('\n')[0] || e.message;
      resolve({ ok: false, error: why });
    });
  });
}

export async function gatherService(
  env: Env,
  platform: NodeJS.Platform = process.platform,
): Promise<ServiceFacts> {
  const file = serviceFile(platform, env);
  const text = file ? await readFile(file, 'utf8').catch(() => null) : null;
  const uid = process.getuid?.() ?? 0;
  let manager: ServiceFacts['manager'] = null;
  if (text !== null && platform === 'linux') {
    const r = await ask(
      'systemctl',
      ['--user', 'show', SYSTEMD_UNIT, '--property=LoadState,ActiveState,SubState,UnitFileState'],
      env,
    );
    manager = r.ok ? { ok: true, props: keyValues(r.out) } : r;
  } else if (text !== null && platform === 'darwin') {
    const r = await ask('launchctl', ['print', `gui/${uid}/${LAUNCHD_LABEL}`], env);
    manager = r.ok
      ? { ok: true, props: { state: /^\s*state = (\S+)/m.exec(r.out)?.[1] ?? 'unknown' } }
      : { ok: false, error: `not loaded (${r.error})` };
  }
  const installedFile = (await readManifest(env))?.serviceFile ?? null;
  return { platform, file, text, installedFile, uid, manager };
}

function keyValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of text.split('\n')) {
    const at = l.indexOf('=');
    if (at > 0) out[l.slice(0, at)] = l.slice(at + 1).trim();
  }
  return out;
}

/** The command line and environment a unit or plist gives the server. */
export function serviceCommand(f: Pick<ServiceFacts, 'platform' | 'text'>): { args: string[]; env: Env } {
  const text = f.text ?? '';
  if (f.platform === 'darwin') {
    const unxml = (s: string) =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
    const strings = (s: string) => [...s.matchAll(/<string>([\s\S]*?)<\/string>/g)].map((m) => unxml(m[1]!));
    const args = strings(/<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text)?.[1] ?? '');
    const env: Env = {};
    const dict = /<key>EnvironmentVariables<\/key>\s*<dict>([\s\S]*?)<\/dict>/.exec(text)?.[1] ?? '';
    for (const m of dict.matchAll(/<key>([\s\S]*?)<\/key>\s*<string>([\s\S]*?)<\/string>/g))
      env[unxml(m[1]!)] = unxml(m[2]!);
    return { args, env };
  }
  const words = (s: string) =>
    [...s.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) =>
      (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1').replace(/%%/g, '%'),
    );
  const args = words(/^ExecStart=(.*)$/m.exec(text)?.[1] ?? '');
  const env: Env = {};
  for (const m of text.matchAll(/^Environment=(.*)$/gm))
    for (const w of words(m[1]!)) {
      const at = w.indexOf('=');
      if (at > 0) env[w.slice(0, at)] = w.slice(at + 1);
    }
  return { args, env };
}

/** How to (re)start the API here: the service manager's command when a service is installed. */
export function startCommand(f: ServiceFacts): string {
  if (f.text !== null && f.platform === 'linux') return `systemctl --user restart ${SYSTEMD_UNIT}`;
  if (f.text !== null && f.platform === 'darwin')
    return `launchctl kickstart -k gui/${f.uid}/${LAUNCHD_LABEL}`;
  return 'transcripts serve (or `transcripts install` to run it as a service at login)';
}

export function assessService(f: ServiceFacts, env: Env, apiAnswers: boolean): CheckResult {
  const c = check('service', 'live', 'service');
  if (!f.file)
    return c.skip(`no systemd or launchd on ${f.platform}: \`transcripts install\` prints the steps`);
  if (f.text === null)
    return f.installedFile
      ? c.fail(
          `install.json says \`transcripts install\` wrote ${f.installedFile}, which is gone`,
          'transcripts install',
        )
      : c.ok(
          `not installed (${f.file}): the API runs while \`transcripts serve\` does; \`transcripts install\` runs it at login`,
        );
  if (!f.text.includes('transcripts install'))
    return c.warn(
      `${f.file} was not written by \`transcripts install\``,
      `look at it, or remove it and run \`transcripts install\``,
    );
  const { args, env: theirEnv } = serviceCommand(f);
  const missing = args.slice(0, 2).filter((a) => a.startsWith('/') && !existsSync(a));
  if (missing.length)
    return c.fail(
      `${f.file} runs ${missing.join(', ')}, which does not exist: the service cannot start`,
      'transcripts install',
    );
  const theirs = resolvePaths({ HOME: env.HOME, ...theirEnv });
  const ours = resolvePaths(env);
  if (theirs.dataDir !== ours.dataDir)
    return c.warn(
      `the service uses ${theirs.dataDir}${theirEnv.CT_HOME ? ` (CT_HOME=${theirEnv.CT_HOME})` : ''}, this CLI ${ours.dataDir}`,
      'run `transcripts install` again from the shell with the CT_HOME you mean',
    );
  const m = f.manager;
  if (!m) return c.ok(`${f.file}`);
  if (!m.ok) {
    const what = `${f.file} is installed, but ${f.platform === 'darwin' ? 'launchd' : 'systemd'} says: ${m.error}`;
    if (f.platform === 'darwin') return c.fail(what, `launchctl bootstrap gui/${f.uid} ${f.file}`);
    return apiAnswers
      ? c.ok(`${what} (its state is unknown here; the API answers)`)
      : c.warn(
          `${what}; the API does not answer`,
          `systemctl --user status ${SYSTEMD_UNIT} (in your login session)`,
        );
  }
  return f.platform === 'darwin' ? assessLaunchd(c, f, m.props) : assessSystemd(c, f, m.props);
}

function assessSystemd(c: ReturnType<typeof check>, f: ServiceFacts, p: Record<string, string>): CheckResult {
  const state = `${p.ActiveState ?? '?'} (${p.SubState ?? '?'}), ${p.UnitFileState || 'not enabled'}`;
  const why = `journalctl --user -u ${SYSTEMD_UNIT} -n 50 says why`;
  if (p.LoadState === 'not-found')
    return c.fail(
      `${f.file} is there, but systemd has not loaded it`,
      `systemctl --user daemon-reload && systemctl --user enable --now ${SYSTEMD_UNIT}`,
    );
  if (p.ActiveState === 'active')
    return p.UnitFileState === 'enabled'
      ? c.ok(`${SYSTEMD_UNIT}: ${state}`)
      : c.warn(
          `${SYSTEMD_UNIT}: ${state}: it will not start at the next login`,
          `systemctl --user enable ${SYSTEMD_UNIT}`,
        );
  if (p.ActiveState === 'activating' || p.ActiveState === 'reloading')
    return c.warn(`${SYSTEMD_UNIT}: ${state}: starting, or restarting after a failure`, why);
  return c.fail(
    `${SYSTEMD_UNIT}: ${state}: the API does not run as a service`,
    `systemctl --user restart ${SYSTEMD_UNIT} (${why})`,
  );
}

function assessLaunchd(c: ReturnType<typeof check>, f: ServiceFacts, p: Record<string, string>): CheckResult {
  if (p.state === 'running') return c.ok(`${LAUNCHD_LABEL}: running`);
  return c.fail(
    `${LAUNCHD_LABEL}: loaded but ${p.state} (its output goes to serve.log in the data dir)`,
    `launchctl kickstart -k gui/${f.uid}/${LAUNCHD_LABEL}`,
  );
}
