/**
 * The doctor's report as text: one line per check under its section — status, what is checked,
 * what was found — and a `fix:` line under each warning and failure; then the tally. On a terminal
 * long lines wrap under their own column and the status is coloured; on a pipe lines are whole.
 * What a check found can quote a file name or a session's id, so it is made one safe line
 * (`terminalLine`) before the status colours are added. Pure.
 */
import { plural } from '../shared/format.js';
import { terminalLine } from '../shared/terminal-text.js';
import { wrapItems } from '../shared/wrap.js';
import type { CheckResult, CheckSection, CheckStatus, DoctorSummary } from './check.js';

const SECTIONS: Record<CheckSection, string> = {
  machine: 'This machine',
  api: 'The API',
  live: 'Live recording',
};

const COLOUR: Record<CheckStatus, string> = { ok: '32', warn: '33', fail: '31', skip: '2' };
const STATUS_WIDTH = 6;
const TITLE_WIDTH = 14;

export interface RenderOptions {
  /** Wrap to this many columns; undefined: whole lines. */
  width?: number;
  colour?: boolean;
}

function wrapped(first: string, found: string, indent: number, width: number | undefined): string[] {
  const text = terminalLine(found);
  if (width === undefined) return [`${first}${text}`];
  const lines = wrapItems(text.split(' '), Math.max(20, width - indent));
  return lines.map((l, i) => `${i === 0 ? first : ' '.repeat(indent)}${l}`);
}

export function renderReport(
  header: string,
  results: readonly CheckResult[],
  summary: DoctorSummary,
  options: RenderOptions = {},
): string[] {
  const out: string[] = wrapped('', header, 2, options.width);
  const indent = 2 + STATUS_WIDTH + TITLE_WIDTH;
  for (const section of Object.keys(SECTIONS) as CheckSection[]) {
    const rows = results.filter((r) => r.section === section);
    if (!rows.length) continue;
    out.push('', SECTIONS[section]);
    for (const r of rows) {
      const word = r.status.padEnd(STATUS_WIDTH);
      const status = options.colour ? `\x1b[${COLOUR[r.status]}m${word}\x1b[0m` : word;
      out.push(...wrapped(`  ${status}${r.title.padEnd(TITLE_WIDTH)}`, r.message, indent, options.width));
      if (r.fix) out.push(...wrapped(`${' '.repeat(indent)}fix: `, r.fix, indent + 5, options.width));
    }
  }
  const tally = [
    summary.fail ? `${summary.fail} failed` : '',
    summary.warn ? plural(summary.warn, 'warning') : '',
    `${summary.ok} ok`,
    summary.skip ? `${summary.skip} not checked` : '',
  ].filter(Boolean);
  out.push('', `${tally.join(', ')}${summary.fail ? '' : summary.warn ? ': nothing fails' : ': all well'}`);
  return out;
}
