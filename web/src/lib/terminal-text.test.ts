import { describe, expect, it } from 'vitest';
import { stripAnsi } from './terminal-text.js';

describe('stripAnsi', () => {
  it('removes colour codes and keeps the text', () => {
    expect(stripAnsi('\u001b[0;36mINFO\u001b[0m ready')).toBe('INFO ready');
    expect(stripAnsi('Running \u001b[1mPostToolUse\u001b[22m hooks')).toBe('Running PostToolUse hooks');
    expect(stripAnsi('\u001b[38;5;208morange\u001b[39m')).toBe('orange');
  });
  it('removes cursor moves, OSC titles and 8-bit CSI', () => {
    expect(stripAnsi('a\u001b[2Kb\u001b[1Ac')).toBe('abc');
    expect(stripAnsi('\u001b]0;title\u0007done')).toBe('done');
    expect(stripAnsi('\u001b]8;;http://x\u001b\\link')).toBe('link');
    expect(stripAnsi('\u009b31mred')).toBe('red');
  });
  it('leaves text without escapes alone, brackets included', () => {
    const s = 'array[0;1] and [1m literal';
    expect(stripAnsi(s)).toBe(s);
  });
});
