/**
 * The user service that runs `transcripts serve`, as text: a systemd `--user` unit (Linux), a
 * launchd agent (macOS), or the steps to do by hand elsewhere. Pure: `installer.ts` places the
 * files and talks to the service manager.
 */

export const SYSTEMD_UNIT = 'transcripts.service';
export const LAUNCHD_LABEL = 'dev.transcripts.api';

export interface ServiceSpec {
  nodePath: string;
  binPath: string;
  host: string;
  port: number;
  /** Environment the service needs (CT_HOME, XDG_*…), as given at install time. */
  env: Record<string, string>;
  /** A file of secrets (CT_API_TOKEN) the unit reads, when there are any. */
  envFile?: string;
  /** Where launchd writes the server's output (systemd has the journal). */
  logFile: string;
}

export function serveArgs(spec: ServiceSpec): string[] {
  return [spec.nodePath, spec.binPath, 'serve', '--host', spec.host, '--port', String(spec.port)];
}

/** A systemd word: quoted, with `\`, `"` escaped and `%` doubled (specifier syntax). */
function systemdQuote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

export function systemdUnit(spec: ServiceSpec): string {
  const lines = [
    '# Written by `transcripts install`; `transcripts uninstall` removes it.',
    '[Unit]',
    'Description=transcripts: history of Claude Code sessions (API and web UI)',
    'After=network.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${serveArgs(spec).map(systemdQuote).join(' ')}`,
    ...Object.entries(spec.env).map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`)}`),
    ...(spec.envFile ? [`EnvironmentFile=${systemdQuote(spec.envFile)}`] : []),
    'Restart=on-failure',
    'RestartSec=5',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ];
  return lines.join('\n');
}

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function launchdPlist(spec: ServiceSpec, secrets: Record<string, string> = {}): string {
  const env = { ...spec.env, ...secrets };
  const str = (s: string) => `<string>${xml(s)}</string>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by `transcripts install`; `transcripts uninstall` removes it. -->',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${str(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...serveArgs(spec).map((a) => `    ${str(a)}`),
    '  </array>',
    ...(Object.keys(env).length
      ? [
          '  <key>EnvironmentVariables</key>',
          '  <dict>',
          ...Object.entries(env).map(([k, v]) => `    <key>${xml(k)}</key>${str(v)}`),
          '  </dict>',
        ]
      : []),
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>',
    `  <key>StandardOutPath</key>${str(spec.logFile)}`,
    `  <key>StandardErrorPath</key>${str(spec.logFile)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** For systems without systemd or launchd: how to run it at login by hand. */
export function manualSteps(spec: ServiceSpec): string[] {
  const cmd = serveArgs(spec)
    .map((a) => (/[\s"]/.test(a) ? `"${a}"` : a))
    .join(' ');
  const env = Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
  return [
    'No systemd or launchd here: start the server at login yourself, for example:',
    `  command: ${cmd}`,
    ...(env.length ? [`  environment: ${env.join(' ')}`] : []),
    '  Windows: Task Scheduler → Create Task → trigger "At log on" → action: the command above.',
    '  Elsewhere: your init system, or a line in your shell profile that starts it in the background.',
  ];
}
