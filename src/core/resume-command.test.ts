import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resumeCommand, shellQuote } from './resume-command.js';

describe('shellQuote', () => {
  it('leaves plain words alone and quotes the rest', () => {
    expect(shellQuote('/home/me/src/app')).toBe('/home/me/src/app');
    expect(shellQuote('/tmp/a b')).toBe("'/tmp/a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });

  it('gives sh back every value unchanged', () => {
    for (const v of ['/p/[...lang]', 'a\'b"c', '$HOME `x` ;|&', 'ü ñ\t*?', '~/x', '-n'])
      expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(v)}`]).toString()).toBe(v);
  });
});

describe('resumeCommand', () => {
  it('changes to the directory, then resumes', () => {
    expect(resumeCommand({ id: '5c0375b4-57a5', cwd: '/Users/me/my app' })).toBe(
      "cd '/Users/me/my app' && claude --resume 5c0375b4-57a5",
    );
  });
  it('resumes alone when the directory is unknown', () => {
    expect(resumeCommand({ id: 'abc', cwd: null })).toBe('claude --resume abc');
  });
});
