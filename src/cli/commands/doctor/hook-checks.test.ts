import { describe, expect, it } from 'vitest';
import type { HookLogLine } from '../../../live/hook-log.js';
import { assessHookCalls, commandAssignments, hookEnv, type HookRunFacts } from './hook-checks.js';

describe('the dirs a hook command records into', () => {
  it('reads the assignments in front of the command, quoted as install writes them', () => {
    expect(
      commandAssignments(`CT_HOME='/my ct' XDG_DATA_HOME=/x '/usr/bin/node' /p/bin/transcripts.js hook`),
    ).toEqual({ CT_HOME: '/my ct', XDG_DATA_HOME: '/x' });
    expect(commandAssignments('/usr/bin/node /p/bin/transcripts.js hook CT_HOME=/late')).toEqual({});
  });

  it("takes HOME and XDG_* from this shell, but not its CT_HOME; the command's own win", () => {
    const env = { HOME: '/h', CT_HOME: '/shell-ct', XDG_DATA_HOME: '/xd', PATH: '/bin' };
    expect(hookEnv('node bin/transcripts.js hook', env)).toEqual({ HOME: '/h', XDG_DATA_HOME: '/xd' });
    expect(hookEnv('CT_HOME=/c node bin/transcripts.js hook', env)).toEqual({
      HOME: '/h',
      XDG_DATA_HOME: '/xd',
      CT_HOME: '/c',
    });
    // No hooks: what this CLI itself uses.
    expect(hookEnv(null, env)).toEqual({ HOME: '/h', XDG_DATA_HOME: '/xd', CT_HOME: '/shell-ct' });
  });
});

describe('hook calls', () => {
  const line = (outcome: HookLogLine['outcome'], error?: string): HookLogLine => ({
    at: '2025-07-01T10:00:00.000Z',
    ms: 90,
    event: 'Stop',
    sessionId: 's',
    outcome,
    ...(error ? { error } : {}),
  });
  const facts = (lines: HookLogLine[]): HookRunFacts => ({
    log: '/d/live/hook.log',
    lines,
    spoolDir: '/d/live/spool',
    spool: { bytes: 0, records: 0, files: 0, overflow: null, rejected: 0 },
  });

  it('ok when none were logged, or the last reached the API', () => {
    expect(assessHookCalls(facts([]), true, 'start').status).toBe('ok');
    const r = assessHookCalls(facts([line('spooled'), line('sent'), line('skipped')]), true, 'start');
    expect(r).toMatchObject({ status: 'ok' });
    expect(r.message).toMatch(/^1 of the last 2 calls reached the API; .* was sent$/);
  });

  it('a spooled last call warns with the start command while the API is down, and is ok once it answers', () => {
    const down = assessHookCalls(
      facts([line('sent'), line('spooled', 'ECONNREFUSED')]),
      false,
      'transcripts serve',
    );
    expect(down).toMatchObject({ status: 'warn', fix: 'transcripts serve' });
    expect(down.message).toContain('was spooled: ECONNREFUSED; 1 of the last 2 reached the API');
    expect(assessHookCalls(facts([line('spooled')]), true, 'x').status).toBe('ok');
  });

  it('calls the API refused warn, naming where the records are kept', () => {
    const r = assessHookCalls(facts([line('rejected', 'bad doc'), line('sent')]), true, 'x');
    expect(r.status).toBe('warn');
    expect(r.message).toContain('1 of the last 2 calls were refused by the API (last: bad doc)');
    expect(r.fix).toContain('/d/live/spool/rejected.ndjson');
  });
});
