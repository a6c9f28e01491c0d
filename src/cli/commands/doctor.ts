/**
 * `transcripts doctor`: one screen that says what is fine, what is not, and what fixes it — the
 * machine (Node.js, dirs, transcript trees), the API the CLI finds (and instance.env), and live
 * recording (hooks, their log and spool, the user service, whether the newest transcript is
 * stored). Read-only: it reads files, asks the API for its health and one session, and asks the
 * service manager about the service; it writes nothing and starts nothing. Exit 1 when a check
 * fails, 0 otherwise (warnings included).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiClient, type Session } from '../../client/api-client.js';
import { ApiError } from '../../client/api-error.js';
import { resolveApiToken } from '../../config/api-token.js';
import { type ApiUrlResolution, resolveApiUrl } from '../../config/api-url.js';
import { type Env, envValue, packageVersion, resolvePaths } from '../../config/paths.js';
import { looseModes } from '../../config/private-files.js';
import { PROVIDERS, providerById } from '../../ingest/providers/index.js';
import { claudeSettingsFile } from '../../live/settings-file.js';
import { defineCommand } from '../command.js';
import {
  assessApi,
  assessHealth,
  assessInstanceEnv,
  type InstanceEnvFacts,
  type Probe,
  probeHealth,
} from './doctor/api-checks.js';
import { type CheckResult, exitCodeOf, summarise } from './doctor/check.js';
import {
  assessHookCalls,
  assessHookDirs,
  assessHooks,
  assessSpool,
  gatherHookRuns,
  gatherHooks,
  hookEnv,
} from './doctor/hook-checks.js';
import {
  assessClaudeTree,
  assessAgentTree,
  assessDir,
  assessNode,
  gatherDir,
  gatherNode,
  gatherTree,
} from './doctor/machine-checks.js';
import { assessModes } from './doctor/mode-check.js';
import { assessRecording, findNewestTranscript } from './doctor/recording-check.js';
import { renderReport } from './doctor/render.js';
import { assessService, gatherService, startCommand } from './doctor/service-check.js';
import { settingsFileOf, settingsOption } from './hooks/shared.js';
import { outputWidth, stdoutIsTTY } from './shared/format.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface DoctorOptions {
  json: boolean;
  webapi?: string;
  settings?: string;
}

/** How long the API gets to answer one question. */
const ASK_MS = 5000;

function resolveOrError(flag: string | undefined, env: Env): ApiUrlResolution | { error: string } {
  try {
    return resolveApiUrl({ flag, env });
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** This CLI's instance.env, and the URL it leads the CLI to without --webapi or WEBAPI_*. */
function instanceEnvFacts(env: Env): InstanceEnvFacts {
  const file = resolvePaths(env).instanceEnvFile;
  const exists = existsSync(file);
  try {
    const r = resolveApiUrl({ env: {}, instanceEnvFile: file });
    return { file, exists, url: r.url, namesNone: r.source !== 'instance.env' };
  } catch (err) {
    return { file, exists, problem: (err as Error).message };
  }
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
    const env = ctx.env;
    const paths = resolvePaths(env);
    const ctHome = envValue(env, 'CT_HOME') && resolve(envValue(env, 'CT_HOME')!);
    const probes = new Map<string, Promise<Probe>>();
    const probe = (url: string) => {
      if (!probes.has(url)) probes.set(url, probeHealth(url, resolveApiToken(env, url).token, ASK_MS));
      return probes.get(url)!;
    };

    const resolution = resolveOrError(options.webapi, env);
    const instance = instanceEnvFacts(env);
    const hooks = await gatherHooks(options.settings ?? claudeSettingsFile(env));
    const claudeRoot = providerById('claude-code').defaultRoots(env)[0]!;
    // Every other agent's session folders (src/ingest/providers/): read and watched like Claude Code's.
    const otherAgents = PROVIDERS.filter((p) => p.id !== 'claude-code').flatMap((p) =>
      p.defaultRoots(env).map((root) => ({ id: p.id, name: p.name, root, setting: p.settings[0]! })),
    );
    const hooksUrl = resolveOrError(undefined, hookEnv(hooks.commands[0]?.command ?? null, env));
    const [
      apiProbe,
      instanceProbe,
      hooksProbe,
      node,
      configDir,
      dataDir,
      claude,
      others,
      service,
      runs,
      newest,
    ] = await Promise.all([
      'url' in resolution ? probe(resolution.url) : null,
      instance.url ? probe(instance.url) : null,
      'url' in hooksUrl ? probe(hooksUrl.url) : null,
      gatherNode(env),
      gatherDir(paths.configDir),
      gatherDir(paths.dataDir, ['live', 'live/spool', 'objects']),
      gatherTree(claudeRoot),
      Promise.all(otherAgents.map((a) => gatherTree(a.root))),
      gatherService(env),
      gatherHookRuns(hooks, env),
      findNewestTranscript(claudeRoot),
    ]);
    const stored: Session | null | undefined =
      newest && apiProbe?.ok
        ? await storedSession(apiProbe.url, resolveApiToken(env, apiProbe.url).token, newest.sessionId)
        : undefined;

    const startFix = startCommand(service);
    const apiAnswers = apiProbe?.ok === true;
    const results: CheckResult[] = [
      assessNode(node),
      assessDir('config-dir', configDir, 'config.json and instance.env live here', ctHome),
      assessDir('data-dir', dataDir, "the store, and the hooks' log and spool, live here", ctHome),
      assessModes(paths.dataDir, existsSync(paths.dataDir), looseModes(paths.dataDir)),
      assessClaudeTree(
        claude,
        apiProbe?.ok ? { url: apiProbe.url, importRoot: apiProbe.health.import.root } : null,
      ),
      ...otherAgents.map((a, i) => assessAgentTree(a, others[i]!)),
      assessApi(resolution, apiProbe, startFix),
      ...assessHealth(apiProbe, packageVersion(), startFix),
      assessInstanceEnv(instance, instanceProbe, 'url' in resolution ? resolution.url : null, startFix),
      assessHooks(hooks),
      assessHookDirs(hooks, env),
      assessHookCalls(runs, hooksProbe?.ok === true, startFix),
      assessSpool(runs, hooksProbe?.ok === true, startFix),
      assessService(service, env, apiAnswers),
      assessRecording({ projectsDir: claude.path, newest, stored, now: Date.now() }),
    ];
    const summary = summarise(results);
    if (options.json) {
      ctx.io.out(
        JSON.stringify(
          {
            cli: { version: packageVersion(), node: process.versions.node, platform: process.platform },
            instance: 'url' in resolution ? resolution : null,
            dirs: { config: paths.configDir, data: paths.dataDir },
            summary,
            checks: results,
          },
          null,
          2,
        ),
      );
      return exitCodeOf(results);
    }
    const header =
      `transcripts doctor — CLI ${packageVersion()}, Node.js v${process.versions.node}, ${process.platform}` +
      (ctHome ? `, CT_HOME=${ctHome}` : '');
    const lines = renderReport(header, results, summary, {
      width: outputWidth(ctx.io, env),
      colour: stdoutIsTTY(ctx.io),
    });
    for (const l of lines) ctx.io.out(l);
    return exitCodeOf(results);
  },
});

/** The stored session `id` (null: not stored; undefined: the API would not say). */
async function storedSession(
  url: string,
  token: string | undefined,
  id: string,
): Promise<Session | null | undefined> {
  const client = new ApiClient({ baseUrl: url, token });
  try {
    return await client.session(id, { signal: AbortSignal.timeout(ASK_MS) });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return null;
    return undefined;
  }
}
