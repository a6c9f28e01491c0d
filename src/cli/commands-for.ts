/**
 * Which registry entries a command line needs loaded: none for `--version`; the one command it
 * names (`sessions …`, `migrate up …`); else a group's commands (`migrate --help` lists them);
 * else all of them (the program's help, `help <command>`, a mistyped name that commander
 * suggests a command for). Only
 * what is loaded is registered with commander; whatever a command line names, the help and the
 * errors it prints are the same as with every command registered.
 */
import type { LazyCommand } from './command.js';

export function commandsFor(
  argv: readonly string[],
  entries: readonly LazyCommand[],
): readonly LazyCommand[] {
  const [first, second] = argv;
  if (first === '-V' || first === '--version') return [];
  if (first === undefined || first.startsWith('-')) return entries;
  const named =
    entries.find((e) => e.name === first) ??
    (second === undefined ? undefined : entries.find((e) => e.name === `${first} ${second}`));
  if (named) return [named];
  const group = entries.filter((e) => e.name.startsWith(`${first} `));
  return group.length ? group : entries;
}
