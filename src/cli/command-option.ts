/**
 * The commander Option of an OptionSpec. A value placeholder ending in `...` (`--session
 * <id...>`) makes the option repeatable, as gh's flags are: one value per occurrence
 * (`--session a --session b`), collected into an array. Commander's own variadic option would take
 * every word after the flag, the command's arguments too (`export --session X <dir>` failed with
 * "missing required argument 'dir'"). Help shows the flag as `--session <id>`.
 */
import { Option } from 'commander';
import type { OptionSpec } from './command.js';

const VARIADIC = /([<[][^>\]]*?)\.\.\.([>\]])/;

export function commanderOption(spec: OptionSpec): Option {
  if (!VARIADIC.test(spec.flags)) {
    const opt = new Option(spec.flags, spec.description);
    if (spec.defaultValue !== undefined) opt.default(spec.defaultValue);
    return opt;
  }
  // A default would be added to, not replaced by, the values given.
  if (spec.defaultValue !== undefined)
    throw new Error(`${spec.flags}: a repeatable option takes no default value`);
  return new Option(spec.flags.replace(VARIADIC, '$1$2'), spec.description).argParser(
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
}
