/**
 * Formatters for what the UI shows: durations (an em dash when the API could not derive one),
 * token counts, byte sizes, costs, timestamps. Pure and locale-independent so tests pin the output.
 */

// Durations and byte sizes read the same in the UI, the CLI and the Markdown export: one rule on
// every view (none at all reads `0s`; unknown, null from the API, reads `—`).
export { EM_DASH, formatBytes, formatDuration } from '../../../src/core/display-format.js';
// A session's cost reads the same in the UI and the CLI too: `$12.30`, `$12.30 + unpriced …`,
// `$12.30+` / `?` in a table cell.
export {
  formatCost,
  formatTotalsCost,
  modelCost,
  modelShares,
  modelLabel,
} from '../../../src/core/display-format.js';
import { EM_DASH } from '../../../src/core/display-format.js';

/** What a cost figure is, wherever one shows (a session's cost row, the list's totals). */
export const COST_NOTE =
  'An estimate at list prices: cache writes at the five-minute rate, no long-context surcharge. ' +
  'config.json `prices` sets the prices of other models.';

function compact(n: number, unit: number, suffix: string): string {
  const v = n / unit;
  return `${v >= 100 ? Math.round(v) : v.toFixed(1).replace(/\.0$/, '')}${suffix}`;
}

/** A token count: `950`, `1.2k`, `34k`, `5.6M`, `1.2B`; `—` when absent. */
export function formatTokens(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return EM_DASH;
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 999_950) return compact(n, 1000, 'k');
  if (a < 999_950_000) return compact(n, 1_000_000, 'M');
  return compact(n, 1_000_000_000, 'B');
}

/** A whole number with thin grouping: `12,345`. */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return EM_DASH;
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A count with its noun, singular for exactly one: `1 compaction`, `1,204 compactions`. */
export function formatCountOf(n: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : pluralNoun}`;
}

/** Sum of a token usage record. */
export function totalTokens(
  t: { input: number; output: number; cacheWrite: number; cacheRead: number } | null | undefined,
): number {
  if (!t) return 0;
  return t.input + t.output + t.cacheWrite + t.cacheRead;
}

/**
 * A timestamp as `YYYY-MM-DD HH:MM` in UTC (the calendar and date filters are UTC days too);
 * `—` when absent or unparsable.
 */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return EM_DASH;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return EM_DASH;
  const d = new Date(ms).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 16)}`;
}

/** A timestamp with its zone, `2025-08-24 19:05 UTC`; just `—` when there is none. */
export function formatUtc(iso: string | null | undefined): string {
  const t = formatTimestamp(iso);
  return t === EM_DASH ? t : `${t} UTC`;
}

/** Only the time of day, `HH:MM:SS` UTC, for transcript lines. */
export function formatClock(iso: string | null | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(11, 19);
}

/** `3 min ago`, `2 h ago`, `5 days ago`, or the date when older than 30 days. */
export function formatRelative(iso: string | null | undefined, now: number): string {
  if (!iso) return EM_DASH;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return EM_DASH;
  const diff = now - ms;
  if (diff < 0) return formatTimestamp(iso);
  const min = Math.floor(diff / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  const days = Math.floor(h / 24);
  if (days <= 30) return `${formatCountOf(days, 'day')} ago`;
  return new Date(ms).toISOString().slice(0, 10);
}

/** Shortens a long string in the middle: `/home/me/…/project`. */
export function middleEllipsis(s: string, max: number): string {
  if (s.length <= max) return s;
  const keep = Math.max(2, max - 1);
  const head = Math.ceil(keep / 2);
  return `${s.slice(0, head)}…${s.slice(s.length - (keep - head))}`;
}

/** The short model name shown in lists: `claude-opus-4-1-20250805` → `opus-4-1`. */
export function shortModel(model: string | null | undefined): string {
  if (!model) return EM_DASH;
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}
