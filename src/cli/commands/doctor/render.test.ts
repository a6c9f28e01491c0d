import { describe, expect, it } from 'vitest';
import { check, exitCodeOf, summarise } from './check.js';
import { renderReport } from './render.js';

const ESC = String.fromCharCode(27);

const results = [
  check('node', 'machine', 'Node.js').ok('v20.20.2'),
  check('api', 'api', 'API').fail(
    'http://127.0.0.1:7650 (the default): nothing answers (ECONNREFUSED)',
    'transcripts serve',
  ),
  check('hooks', 'live', 'hooks').warn(
    'not registered in /h/.claude/settings.json',
    'transcripts hooks install',
  ),
  check('recording', 'live', 'recording').skip('not checked: the API does not answer'),
];

describe('the doctor report', () => {
  it('counts, and exits 1 only when something fails', () => {
    expect(summarise(results)).toEqual({ ok: 1, warn: 1, fail: 1, skip: 1 });
    expect(exitCodeOf(results)).toBe(1);
    expect(exitCodeOf(results.filter((r) => r.status !== 'fail'))).toBe(0);
    // A fix is kept only where something is wrong.
    expect(check('x', 'api', 'x').ok('fine')).not.toHaveProperty('fix');
  });

  it('prints sections, a line per check, a fix under each problem, and the tally', () => {
    expect(renderReport('doctor', results, summarise(results))).toEqual([
      'doctor',
      '',
      'This machine',
      '  ok    Node.js       v20.20.2',
      '',
      'The API',
      '  fail  API           http://127.0.0.1:7650 (the default): nothing answers (ECONNREFUSED)',
      '                      fix: transcripts serve',
      '',
      'Live recording',
      '  warn  hooks         not registered in /h/.claude/settings.json',
      '                      fix: transcripts hooks install',
      '  skip  recording     not checked: the API does not answer',
      '',
      '1 failed, 1 warning, 1 ok, 1 not checked',
    ]);
  });

  it('wraps under the message column on a narrow terminal, and colours the status', () => {
    const lines = renderReport('doctor', results, summarise(results), { width: 50, colour: true });
    expect(lines.slice(6, 10)).toEqual([
      '  \x1b[31mfail  \x1b[0mAPI           http://127.0.0.1:7650 (the',
      '                      default): nothing answers',
      '                      (ECONNREFUSED)',
      '                      fix: transcripts serve',
    ]);
    for (const l of lines)
      expect(l.replace(new RegExp(`${ESC}\\[\\d+m`, 'g'), '').length).toBeLessThanOrEqual(50);
  });

  it('keeps its own colours but not those of what a check found (a file name, a session id)', () => {
    const found = [
      check('recording', 'live', 'recording').warn(
        `newest ${ESC}]0;x\x07${ESC}[5mblink${ESC}[0m\nnot stored`,
        `transcripts backfill\x07`,
      ),
    ];
    expect(renderReport('doctor', found, summarise(found), { colour: true }).slice(2, 5)).toEqual([
      'Live recording',
      `  ${ESC}[33mwarn  ${ESC}[0mrecording     newest blink not stored`,
      '                      fix: transcripts backfill␇',
    ]);
  });
});
