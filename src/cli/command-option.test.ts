import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commanderOption } from './command-option.js';

/** Parses `argv` with one command taking `<dir>` and the given options; its options and arguments. */
function parse(argv: string[], ...flags: string[]) {
  const cmd = new Command('export').exitOverride().argument('<dir>');
  cmd.configureOutput({ writeErr: () => undefined });
  for (const f of flags) cmd.addOption(commanderOption({ flags: f, description: 'test option' }));
  cmd.action(() => undefined);
  cmd.parse(argv, { from: 'user' });
  return { opts: cmd.opts(), args: cmd.args };
}

describe('commanderOption', () => {
  it('takes one value per occurrence of a repeatable option, leaving the arguments alone', () => {
    expect(parse(['--session', 'a', '/tmp/out'], '--session <id...>')).toEqual({
      opts: { session: ['a'] },
      args: ['/tmp/out'],
    });
    expect(parse(['--session', 'a', '--session', 'b', '/tmp/out'], '--session <id...>')).toEqual({
      opts: { session: ['a', 'b'] },
      args: ['/tmp/out'],
    });
    expect(
      parse(
        ['/tmp/out', '--session', 'a', '--tag', 'x', '--session', 'b'],
        '--session <id...>',
        '--tag <t...>',
      ),
    ).toEqual({ opts: { session: ['a', 'b'], tag: ['x'] }, args: ['/tmp/out'] });
  });

  it('is absent when not given, and a second value after one flag is an argument', () => {
    expect(parse(['/tmp/out'], '--session <id...>').opts).toEqual({});
    expect(() => parse(['--session', 'a', 'b', '/tmp/out'], '--session <id...>')).toThrow(
      /too many arguments/,
    );
  });

  it('shows a repeatable flag with one value in help', () => {
    expect(commanderOption({ flags: '--session <id...>', description: 'd' }).flags).toBe('--session <id>');
    expect(commanderOption({ flags: '-t, --tag [name...]', description: 'd' }).flags).toBe(
      '-t, --tag [name]',
    );
  });

  it('keeps ordinary options as they are, defaults included', () => {
    const opt = commanderOption({ flags: '--limit <n>', description: 'd', defaultValue: '5' });
    expect([opt.flags, opt.defaultValue]).toEqual(['--limit <n>', '5']);
    expect(() => commanderOption({ flags: '--x <v...>', description: 'd', defaultValue: 'a' })).toThrow(
      /no default/,
    );
  });
});
