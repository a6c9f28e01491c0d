/**
 * What one `transcripts doctor` check concludes: ok, warn or fail with a one-line explanation and,
 * for warn and fail, what fixes it — or skip, when what it looks at could not be reached (the
 * API's checks while nothing answers). Pure.
 */

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** The parts of the report, in the order they are printed. */
export type CheckSection = 'machine' | 'api' | 'live';

export interface CheckResult {
  /** Stable name for scripts: `node`, `api`, `hooks`, … */
  id: string;
  section: CheckSection;
  /** What is checked, as the report's second column shows it. */
  title: string;
  status: CheckStatus;
  /** One line: what was found. */
  message: string;
  /** For warn and fail: the command (or the one step) that fixes it. */
  fix?: string;
}

type Made = Omit<CheckResult, 'status'>;

/** `check(id, section, title)` gives the four conclusions of one check. */
export function check(id: string, section: CheckSection, title: string) {
  const make = (status: CheckStatus, message: string, fix?: string): CheckResult => {
    const r: Made & { status: CheckStatus } = { id, section, title, status, message };
    if (fix !== undefined && status !== 'ok' && status !== 'skip') r.fix = fix;
    return r;
  };
  return {
    ok: (message: string) => make('ok', message),
    warn: (message: string, fix: string) => make('warn', message, fix),
    fail: (message: string, fix: string) => make('fail', message, fix),
    skip: (message: string) => make('skip', message),
  };
}

export interface DoctorSummary {
  ok: number;
  warn: number;
  fail: number;
  skip: number;
}

export function summarise(results: readonly CheckResult[]): DoctorSummary {
  const s: DoctorSummary = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const r of results) s[r.status]++;
  return s;
}

/** 1 when any check failed; warnings alone leave it 0. */
export function exitCodeOf(results: readonly CheckResult[]): number {
  return results.some((r) => r.status === 'fail') ? 1 : 0;
}
