/** Every CLI command, in help order. Add a command by adding its spec here. */
import type { CommandSpec } from '../command.js';
import { backfillCommand } from './backfill.js';
import { serveCommand } from './serve.js';

export const COMMANDS: ReadonlyArray<CommandSpec<never>> = [
  serveCommand as CommandSpec<never>,
  backfillCommand as CommandSpec<never>,
];
