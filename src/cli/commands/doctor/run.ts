/** What `transcripts doctor` does (its spec, ../doctor.ts, imports this when it runs). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiClient, type Session } from '../../../client/api-client.js';
import { ApiError } from '../../../client/api-error.js';
import { resolveApiToken } from '../../../config/api-token.js';
import { type ApiUrlResolution, resolveApiUrl } from '../../../config/api-url.js';
import { type Env, envValue, packageVersion, resolvePaths } from '../../../config/paths.js';
import { looseModes } from '../../../config/private-files.js';
import { PROVIDERS, providerById } from '../../../ingest/providers/index.js';
import { claudeSettingsFile } from '../../../live/settings-file.js';
import type { CommandContext } from '../../command.js';
import type { DoctorOptions } from '../doctor.js';
import { outputWidth, stdoutIsTTY } from '../shared/format.js';
import {
  assessApi,
  assessHealth,
  assessInstanceEnv,
  type InstanceEnvFacts,
  type Probe,
  probeHealth,
} from './api-checks.js';
import { type CheckResult, exitCodeOf, summarise } from './check.js';
import {
  assessHookCalls,
  assessHookDirs,
  assessHooks,
  assessSpool,
  gatherHookRuns,
  gatherHooks,
  hookEnv,
} from './hook-checks.js';
import {
  assessClaudeTree,
  assessAgentTree,
  assessDir,
  assessNode,
  gatherDir,
  gatherNode,
  gatherTree,
} from './machine-checks.js';
import { assessModes } from './mode-check.js';
import { assessRecording, findNewestTranscript } from './recording-check.js';
import { renderReport } from './render.js';
import { assessService, gatherService, startCommand } from './service-check.js';

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

export async function runDoctor(options: DoctorOptions, ctx: CommandContext): Promise<number> {
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
}

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
