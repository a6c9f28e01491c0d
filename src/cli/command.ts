/**
 * The shape of a CLI command (STYLE §6, after gh): parsing produces typed options, `run` does the
 * work with what `ctx` provides. `main.ts` registers every command with commander and is the only
 * place that turns errors into exit codes.
 */
import type { ApiClient } from '../client/api-client.js';
import type { ApiUrlResolution } from '../config/api-url.js';
import type { Env } from '../config/paths.js';
import type { Io } from './io.js';

export interface OptionSpec {
  /**
   * Commander flags, e.g. `--dir <dir>`, `--dry-run`, `--no-import`. A value ending in `...`
   * (`--session <id...>`) makes the option repeatable, one value per flag (command-option.ts).
   */
  flags: string;
  description: string;
  defaultValue?: string | boolean;
  /**
   * The API parameters (query parameters, body fields) this flag's value is sent as, by the name
   * the API's 400 messages give them (`limit`, `hostname`, `to`). A 400 naming one of them when
   * the flag was given is the user's value refused: main reports it as a usage error naming the
   * flag (exit 2), not the parameter.
   */
  apiParams?: string[];
}

export interface ArgumentSpec {
  /** `<dir>` (required) or `[dir]` (optional). */
  name: string;
  description: string;
  /** The API parameters this argument's value is sent as (see OptionSpec.apiParams). */
  apiParams?: string[];
}

export interface CommandContext {
  io: Io;
  env: Env;
  /** An API client for `--webapi` (or the configured instance), plus how its URL was chosen. */
  client(webapi?: string): { client: ApiClient; resolution: ApiUrlResolution };
  /** Aborted on SIGINT/SIGTERM while the command runs. */
  signal: AbortSignal;
}

export interface CommandSpec<O = unknown> {
  /** `serve`, or a space-separated path such as `migrate up`. */
  name: string;
  summary: string;
  description?: string;
  examples: string[];
  args?: ArgumentSpec[];
  options: OptionSpec[];
  /** Commander's raw values → typed options; throws UsageError for a bad value. */
  parse(raw: Record<string, unknown>, args: string[]): O;
  /** Returns the exit code (default 0); throws for failures. */
  run(options: O, ctx: CommandContext): Promise<number | void>;
}

/** Helper giving `parse` its type. */
export function defineCommand<O>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** A registry entry (commands/index.ts): the command's name, and how to load the rest of it. */
export interface LazyCommand {
  /** The spec's own `name`; main checks that they agree. */
  name: string;
  load(): Promise<CommandSpec<never>>;
}

/** A registry entry whose module is imported only when the command is run or its help shown. */
export function lazy<O>(name: string, load: () => Promise<CommandSpec<O>>): LazyCommand {
  return { name, load: load as () => Promise<CommandSpec<never>> };
}
