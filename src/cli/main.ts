/**
 * The `transcripts` CLI entry point (bin/transcripts.js calls `main`). Registers the commands a
 * command line needs with commander (commands-for.ts: the one it runs, the whole list for the
 * program's help) and is the only place that maps outcomes to exit codes:
 * 0 ok, 2 usage or configuration error, 1 anything else.
 *
 * Start-up time is what this file and commands/index.ts import statically: keep it to commander
 * and the light modules every command needs (test/cli/cli-import-graph.test.ts).
 */
import { Command, CommanderError, Option } from 'commander';
import { ApiClient } from '../client/api-client.js';
import { ApiConnectionError, ApiError } from '../client/api-error.js';
import { resolveApiToken } from '../config/api-token.js';
import { describeApiUrl, resolveApiUrl } from '../config/api-url.js';
import { ConfigError } from '../config/config-error.js';
import { InvalidStoreSetting } from '../store/contract.js';
import { type Env, packageVersion } from '../config/paths.js';
import type { CommandContext, CommandSpec, LazyCommand } from './command.js';
import { commanderOption } from './command-option.js';
import { commandsFor } from './commands-for.js';
import { COMMANDS } from './commands/index.js';
import { fetchWithHeadersTimeout } from './headers-timeout.js';
import { httpFetchStream } from './http-fetch-stream.js';
import { UsageError } from './errors.js';
import { terminalText } from './commands/shared/terminal-text.js';
import { createIo, type Io } from './io.js';
import { type GivenValue, refusedValue } from './refused-value.js';

export interface MainDeps {
  io?: Io;
  env?: Env;
  commands?: readonly LazyCommand[];
}

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** What a command group (the first word of `migrate up`, …) is for, in its help. */
const GROUP_SUMMARIES: Record<string, string> = {
  migrate: 'show, apply or revert schema migrations of the instance (status, up, down)',
  hooks:
    'register the Claude Code hooks that record sessions live, or check them (install, uninstall, status)',
};

function register(
  program: Command,
  spec: CommandSpec<never>,
  ctx: CommandContext,
  setCode: (n: number) => void,
) {
  const parts = spec.name.split(' ');
  let parent = program;
  for (const group of parts.slice(0, -1)) {
    parent =
      parent.commands.find((c) => c.name() === group) ??
      parent.command(group).description(GROUP_SUMMARIES[group] ?? `${group} commands`);
  }
  const cmd = parent
    .command(parts[parts.length - 1]!)
    .summary(spec.summary)
    .description(spec.description ?? spec.summary);
  for (const a of spec.args ?? []) cmd.argument(a.name, a.description);
  const sentAs: Array<{ option: Option; apiParams: string[] }> = [];
  for (const o of spec.options) {
    const opt = commanderOption(o);
    cmd.addOption(opt);
    if (o.apiParams) sentAs.push({ option: opt, apiParams: o.apiParams });
  }
  /** API parameter → the flag or argument the user gave its value with (not defaults). */
  const givenValues = (): Map<string, GivenValue> => {
    const given = new Map<string, GivenValue>();
    for (const { option, apiParams } of sentAs) {
      const key = option.attributeName();
      if (cmd.getOptionValueSource(key) !== 'cli') continue;
      const v: unknown = cmd.getOptionValue(key);
      const value = Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : undefined;
      for (const p of apiParams) given.set(p, { name: option.long ?? option.flags, value });
    }
    (spec.args ?? []).forEach((a, i) => {
      if (!a.apiParams || cmd.args[i] === undefined) return;
      const value = a.name.endsWith('...>') ? cmd.args.slice(i).join(' ') : cmd.args[i];
      for (const p of a.apiParams) given.set(p, { name: a.name, value });
    });
    return given;
  };
  if (spec.examples.length)
    cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  cmd.allowExcessArguments(false);
  cmd.action(async () => {
    const options = spec.parse(cmd.opts(), cmd.args);
    try {
      setCode((await spec.run(options, ctx)) ?? EXIT.ok);
    } catch (err) {
      // A value only the server could judge, refused: a usage error naming the flag (exit 2).
      throw refusedValue(err, givenValues()) ?? err;
    }
  });
}

/**
 * Ordinary requests: an instance that takes the connection but does not answer is given up on
 * after a minute (Node's own default waits five), with "no answer in time". Reindexes and
 * migrations, answered only when done, use the patient pool.
 */
const promptFetch = fetchWithHeadersTimeout(60_000, httpFetchStream());

/** The specs of the commands `argv` needs, loaded (only those: see commands-for.ts). */
async function loadCommands(argv: string[], entries: readonly LazyCommand[]): Promise<CommandSpec<never>[]> {
  return Promise.all(
    commandsFor(argv, entries).map(async (entry) => {
      const spec = await entry.load();
      if (spec.name !== entry.name)
        throw new Error(`commands/index.ts lists "${entry.name}" but its module defines "${spec.name}"`);
      return spec;
    }),
  );
}

export async function main(argv: string[], deps: MainDeps = {}): Promise<number> {
  const io = deps.io ?? createIo();
  const env = deps.env ?? process.env;
  const controller = new AbortController();
  const ctx: CommandContext = {
    io,
    env,
    signal: controller.signal,
    client(webapi) {
      const resolution = resolveApiUrl({ flag: webapi, env });
      const client = new ApiClient({
        baseUrl: resolution.url,
        token: resolveApiToken(env, resolution.url).token,
        origin: describeApiUrl(resolution),
        // Loaded only by the commands that wait on a reindex or migrations.
        patientDispatcher: () => import('../client/patient-dispatcher.js').then((m) => m.patientDispatcher),
        fetch: promptFetch,
        // Ctrl-C ends any request under way, not only the ones a command passes the signal to.
        signal: controller.signal,
      });
      return { client, resolution };
    },
  };

  let code: number = EXIT.ok;
  const program = new Command('transcripts')
    .description('A self-hosted history of Claude Code sessions: web UI, HTTP API and this CLI.')
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    })
    .showHelpAfterError('(add --help for usage)');
  program.addHelpText('after', '\nRun `transcripts <command> --help` for the options of a command.\n');
  for (const spec of await loadCommands(argv, deps.commands ?? COMMANDS))
    register(program, spec, ctx, (n) => (code = n));

  if (argv.length === 0) {
    io.stderr.write(program.helpInformation());
    await io.flush();
    return EXIT.usage;
  }

  // Long-running commands stop cleanly on Ctrl-C (serve installs its own handlers).
  const onSignal = () => controller.abort();
  const interactive = argv[0] !== 'serve';
  if (interactive) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    code = reportError(err, io, controller.signal);
  } finally {
    if (interactive) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
  await io.flush();
  return code;
}

function reportError(err: unknown, io: Io, signal: AbortSignal): number {
  // A message may carry a server's words or a file's name: shown, never acted on by the terminal.
  const say = (line: string) => io.err(terminalText(line));
  if (err instanceof CommanderError) {
    // Commander already printed help, the version or its own error message.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0)
      return EXIT.ok;
    return EXIT.usage;
  }
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof InvalidStoreSetting) {
    say(`error: ${err.message}`);
    return EXIT.usage;
  }
  if (signal.aborted) {
    say('interrupted');
    return EXIT.failure;
  }
  if (err instanceof ApiError) {
    say(`error: ${err.message} (HTTP ${err.status} ${err.code} from ${err.method} ${err.url})`);
    return EXIT.failure;
  }
  if (err instanceof ApiConnectionError) {
    say(`error: ${err.message}`);
    return EXIT.failure;
  }
  say(`error: ${err instanceof Error ? err.message : String(err)}`);
  if (process.env.CT_DEBUG && err instanceof Error && err.stack) io.err(err.stack);
  return EXIT.failure;
}
