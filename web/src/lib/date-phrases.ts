/**
 * Date phrases of the omnibox, turned into inclusive day ranges (`from`/`to` as `YYYY-MM-DD`,
 * the form the API's `from`/`to` take; a bare date as `to` means the end of that day). Days are
 * UTC days, like the API's calendar rollup, so a phrase and the calendar always agree.
 *
 * Forms: `today`, `yesterday`, `this week`, `last week`, `this month`, `last month`,
 * `last N days|weeks|months` (also `past N …`), a date `2026-03-05`, a month `2026-03`,
 * `mar 2026` / `march 2026`, a range `2026-03-01..2026-03-09`, and `since X` / `before X` /
 * `after X` around any of those. Weeks start on Monday.
 */

export interface DayRange {
  from?: string;
  to?: string;
}

export interface DatePhraseMatch {
  /** How many tokens the phrase used. */
  length: number;
  range: DayRange;
  /** The phrase as recognised, for chips and the dropdown (`last 7 days`). */
  label: string;
}

/** A token that looks like a date but is not one (`2026-02-30`): the reason, in words. */
export interface DateProblem {
  length: number;
  problem: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a UTC day. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC of the day holding `ms`. */
export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Milliseconds of midnight UTC on `YYYY-MM-DD`, or null when it is not a calendar date. */
export function parseIsoDay(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms;
}

/** First and last day of a month (`month` 1-12). */
export function monthRange(year: number, month: number): Required<DayRange> {
  return { from: isoDay(Date.UTC(year, month - 1, 1)), to: isoDay(Date.UTC(year, month, 0)) };
}

function monthIndex(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  const short = MONTHS.indexOf(w);
  if (short >= 0) return short;
  const long = MONTH_NAMES.indexOf(w);
  if (long >= 0) return long;
  if (w === 'sept') return 8;
  return null;
}

/** Monday of the week holding `dayMs` (a UTC midnight). */
function mondayOf(dayMs: number): number {
  const dow = (new Date(dayMs).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return dayMs - dow * DAY_MS;
}

/**
 * A plain (not since/before) phrase at the start of `words`, or a problem when the first token
 * has the shape of a date and is not one.
 */
function plainPhrase(words: string[], now: number): DatePhraseMatch | DateProblem | null {
  const w0 = words[0]?.toLowerCase();
  if (w0 === undefined) return null;
  const w1 = words[1]?.toLowerCase();
  const w2 = words[2]?.toLowerCase();
  const today = startOfDay(now);

  if (w0 === 'today') return { length: 1, range: { from: isoDay(today), to: isoDay(today) }, label: 'today' };
  if (w0 === 'yesterday') {
    const d = isoDay(today - DAY_MS);
    return { length: 1, range: { from: d, to: d }, label: 'yesterday' };
  }
  if ((w0 === 'this' || w0 === 'last') && (w1 === 'week' || w1 === 'month')) {
    const last = w0 === 'last';
    if (w1 === 'week') {
      const monday = mondayOf(today) - (last ? 7 * DAY_MS : 0);
      return {
        length: 2,
        range: { from: isoDay(monday), to: isoDay(monday + 6 * DAY_MS) },
        label: `${w0} week`,
      };
    }
    const now0 = new Date(today);
    let y = now0.getUTCFullYear();
    let m = now0.getUTCMonth() + 1;
    if (last) {
      m -= 1;
      if (m === 0) {
        m = 12;
        y -= 1;
      }
    }
    return { length: 2, range: monthRange(y, m), label: `${w0} month` };
  }
  if ((w0 === 'last' || w0 === 'past') && w1 !== undefined && /^\d+$/.test(w1) && w2 !== undefined) {
    const n = Number(w1);
    const unit = /^(days?|weeks?|months?)$/.exec(w2)?.[1];
    if (unit && n >= 1 && n <= 3650) {
      const days = unit.startsWith('day') ? n : unit.startsWith('week') ? n * 7 : null;
      let from: number;
      if (days !== null) from = today - (days - 1) * DAY_MS;
      else {
        const d = new Date(today);
        from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, d.getUTCDate() + 1);
      }
      return { length: 3, range: { from: isoDay(from), to: isoDay(today) }, label: `${w0} ${n} ${unit}` };
    }
  }
  // 2026-03-01..2026-03-09
  const span = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(w0);
  if (span) {
    const a = parseIsoDay(span[1]!);
    const b = parseIsoDay(span[2]!);
    if (a === null || b === null) return { length: 1, problem: `"${w0}" is not a range of calendar dates` };
    if (a > b) return { length: 1, problem: `"${w0}" ends before it starts` };
    return { length: 1, range: { from: span[1]!, to: span[2]! }, label: w0 };
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(w0)) {
    if (parseIsoDay(w0) === null) return { length: 1, problem: `"${w0}" is not a calendar date` };
    return { length: 1, range: { from: w0, to: w0 }, label: w0 };
  }
  const ym = /^(\d{4})-(\d{2})$/.exec(w0);
  if (ym) {
    const mo = Number(ym[2]);
    if (mo < 1 || mo > 12) return { length: 1, problem: `"${w0}" is not a month (use YYYY-MM)` };
    return { length: 1, range: monthRange(Number(ym[1]), mo), label: w0 };
  }
  const mi = monthIndex(w0);
  if (mi !== null && w1 !== undefined && /^\d{4}$/.test(w1)) {
    return { length: 2, range: monthRange(Number(w1), mi + 1), label: `${MONTHS[mi]} ${w1}` };
  }
  return null;
}

function dayBefore(day: string): string {
  return isoDay(parseIsoDay(day)! - DAY_MS);
}

function dayAfter(day: string): string {
  return isoDay(parseIsoDay(day)! + DAY_MS);
}

/**
 * The date phrase at the start of `words` (tokens, already split on spaces), a problem when it
 * has the shape of a date but is not one, or null when it is not a date phrase at all.
 *
 * @example
 * matchDatePhrase(['last', '7', 'days', 'deploy'], Date.parse('2026-03-10T12:00:00Z'))
 * // → { length: 3, range: { from: '2026-03-04', to: '2026-03-10' }, label: 'last 7 days' }
 */
export function matchDatePhrase(words: string[], now: number): DatePhraseMatch | DateProblem | null {
  const w0 = words[0]?.toLowerCase();
  if (w0 === 'since' || w0 === 'before' || w0 === 'after') {
    const inner = plainPhrase(words.slice(1), now);
    if (inner === null) return null; // "since the refactor": ordinary words
    if ('problem' in inner) return { length: inner.length + 1, problem: inner.problem };
    const { from, to } = inner.range as Required<DayRange>;
    const label = `${w0} ${inner.label}`;
    const length = inner.length + 1;
    if (w0 === 'since') return { length, range: { from }, label };
    if (w0 === 'before') return { length, range: { to: dayBefore(from) }, label };
    return { length, range: { from: dayAfter(to) }, label };
  }
  return plainPhrase(words, now);
}
