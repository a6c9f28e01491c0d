import { describe, expect, it } from 'vitest';
import { lazy } from './command.js';
import { commandsFor } from './commands-for.js';

const never = () => Promise.reject(new Error('not loaded in this test'));
const entries = ['serve', 'migrate status', 'migrate up', 'sessions', 'hook', 'hooks install'].map((n) =>
  lazy(n, never),
);
const names = (argv: string[]) => commandsFor(argv, entries).map((e) => e.name);
const all = entries.map((e) => e.name);

describe('commandsFor', () => {
  it('loads only the command a command line names', () => {
    expect(names(['sessions', '--limit', '5'])).toEqual(['sessions']);
    expect(names(['sessions', '--help'])).toEqual(['sessions']);
    expect(names(['migrate', 'up', '--to', '3'])).toEqual(['migrate up']);
    // `hook` is a command of its own, not the start of `hooks …`.
    expect(names(['hook'])).toEqual(['hook']);
    expect(names(['hooks', 'install'])).toEqual(['hooks install']);
  });

  it("loads a group's commands when only the group is named", () => {
    expect(names(['migrate'])).toEqual(['migrate status', 'migrate up']);
    expect(names(['migrate', '--help'])).toEqual(['migrate status', 'migrate up']);
    expect(names(['migrate', 'sideways'])).toEqual(['migrate status', 'migrate up']);
  });

  it('loads none for the version', () => {
    expect(names(['--version'])).toEqual([]);
    expect(names(['-V'])).toEqual([]);
  });

  it('loads every command for the list, help <command> and unknown names', () => {
    expect(names([])).toEqual(all);
    expect(names(['--help'])).toEqual(all);
    expect(names(['help', 'sessions'])).toEqual(all);
    expect(names(['sesions'])).toEqual(all);
  });
});
