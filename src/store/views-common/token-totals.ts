/**
 * The totals of `Views.tokenTotals` from the rows both engines' statements give: one per model
 * (null: tokens of sessions whose split is unknown) with its sessions and summed counts, as
 * numbers or (PostgreSQL's sums) numeric strings.
 */
import { tokenSum } from '../../core/usage.js';
import type { TokenTotals } from '../contract.js';

export interface TotalsRow {
  model: string | null;
  sessions: number | string;
  input: number | string | null;
  output: number | string | null;
  cache_write: number | string | null;
  cache_read: number | string | null;
}

export function tokenTotals(sessions: number | string, rows: TotalsRow[]): TokenTotals {
  const n = (v: number | string | null) => Number(v ?? 0);
  const byModel = rows.map((r) => ({
    model: r.model,
    sessions: n(r.sessions),
    tokens: {
      input: n(r.input),
      output: n(r.output),
      cacheWrite: n(r.cache_write),
      cacheRead: n(r.cache_read),
    },
  }));
  // Most tokens first; ties by name, the unknown split last.
  byModel.sort(
    (a, b) =>
      tokenSum(b.tokens) - tokenSum(a.tokens) ||
      (a.model === null ? 1 : b.model === null ? -1 : a.model < b.model ? -1 : a.model > b.model ? 1 : 0),
  );
  return { sessions: n(sessions), byModel };
}
