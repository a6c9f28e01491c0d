/**
 * `transcripts doctor`: one screen that says what is fine, what is not, and what fixes it — the
 * machine (Node.js, dirs, transcript trees), the API the CLI finds (and instance.env), and live
 * recording (hooks, their log and spool, the user service, whether the newest transcript is
 * stored). Read-only: it reads files, asks the API for its health and one session, and asks the
 * service manager about the service; it writes nothing and starts nothing. Exit 1 when a check
 * fails, 0 otherwise (warnings included).
 */
import { defineCommand } from '../command.js';
import { settingsFileOf, settingsOption } from './hooks/shared.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface DoctorOptions {
  json: boolean;
  webapi?: string;
  settings?: string;
}

export const doctorCommand = defineCommand<DoctorOptions>({
  name: 'doctor',
  summary: 'Check the installation, the instance and live recording; say what fixes each problem',
  description:
    'Checks, without changing anything: Node.js and the SQLite driver; the config and data dirs; ' +
    '~/.claude/projects and ~/.codex/sessions; the API the CLI finds (how, whether it answers, its version, ' +
    'store, schema, search index, first-start import and which transcript trees it watches); instance.env; ' +
    'the Claude Code hooks (registered, ' +
    "running files that exist, with this CLI's CT_HOME), their recent calls and their spool; the user service " +
    '(systemd --user or launchd); and whether the newest transcript on this machine is stored. Each line ' +
    'reads ok, warn, fail or skip (not checked), with the command that fixes a warning or failure. --json ' +
    'gives the same as data. Exits 1 when a check fails, 0 otherwise.',
  examples: [
    'transcripts doctor',
    'transcripts doctor --json | jq ".checks[] | select(.status != \\"ok\\")"',
  ],
  options: [jsonOption, webapiOption, settingsOption],
  parse: (raw) => ({ json: raw.json === true, webapi: webapiOf(raw), settings: settingsFileOf(raw) }),
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs none of
    // the checks (ingest/, live/).
    const { runDoctor } = await import('./doctor/run.js');
    return runDoctor(options, ctx);
  },
});
