/**
 * How a duration and a byte size read wherever the product shows one — the web UI, the CLI and
 * the Markdown export — so one session's active time reads the same in all three. Pure and
 * locale-independent (the web build imports it too).
 */

export const EM_DASH = '—';

/**
 * A duration in ms, cut (not rounded) to its unit: `0s`, `850ms`, `45s`, `3m 12s`, `1h 05m`, `2d 3h`;
 * `—` for null, undefined or a negative or non-finite value (the API says null when it could not
 * derive it).
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return EM_DASH;
  // Nothing at all reads as the seconds it is, like the other whole durations; a part of one in ms.
  if (ms === 0) return '0s';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  const d = Math.floor(h / 24);
  return `${d}d ${h % 24}h`;
}

/** A byte size in binary units: `512 B`, `1.2 KB`, `3.4 MB`, `1.1 GB`; `—` when absent. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return EM_DASH;
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1).replace(/\.0$/, '')} ${units[i]}`;
}

/** US dollars to the cent: `$0.00`, `<$0.01`, `$0.42`, `$1,234.56`; `—` when absent. */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd) || usd < 0) return EM_DASH;
  if (usd > 0 && usd < 0.005) return '<$0.01';
  const [whole, cents] = usd.toFixed(2).split('.') as [string, string];
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** A session's cost as the API gives it (core/pricing.ts's SessionCost). */
export interface CostLike {
  usd: number | null;
  complete: boolean;
  byModel: Record<string, number | null>;
}

/** The models of a cost that have no price, by name (`''`, tokens no line named a model for). */
export function unpricedModels(cost: CostLike): string[] {
  return Object.entries(cost.byModel)
    .filter(([, usd]) => usd === null)
    .map(([model]) => modelLabel(model));
}

/**
 * Each model's share of a cost, dearest first, the models without a price last (by name):
 * `claude-opus-4-1 $3.20`, `claude-fable-5 no price`.
 */
export function modelShares(byModel: Record<string, number | null>): string[] {
  return Object.entries(byModel)
    .sort((a, b) => (b[1] ?? -1) - (a[1] ?? -1) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([model, usd]) => `${modelLabel(model)} ${modelCost(usd)}`);
}

/**
 * A session's cost in a phrase: `$12.30`; `$12.30 + unpriced claude-opus-5` when some of its
 * models have no price; `unpriced claude-fable-5` when none has; `unknown (tokens not split by
 * model)` for a session summarised before the split was kept that used several models. `short`
 * (a table cell): `$12.30`, `$12.30+`, `?`.
 */
export function formatCost(cost: CostLike, short = false): string {
  const unpriced = unpricedModels(cost);
  if (short) return cost.usd === null ? '?' : `${formatUsd(cost.usd)}${cost.complete ? '' : '+'}`;
  if (cost.complete) return formatUsd(cost.usd ?? 0);
  if (unpriced.length === 0) return 'unknown (tokens not split by model)';
  const names = `unpriced ${unpriced.join(', ')}`;
  return cost.usd === null ? names : `${formatUsd(cost.usd)} + ${names}`;
}

/** The cost part of `GET /api/totals` (`model` null: tokens of sessions not split by model). */
export interface TotalsCostLike {
  usd: number | null;
  complete: boolean;
  byModel: readonly { model: string | null; usd: number | null }[];
}

/**
 * The cost of the list's totals in a few words: `$3,412.50`; `$3,412.50 + unpriced claude-opus-5`
 * (`unpriced …` alone when nothing has a price) when one or two named models have no price and
 * every token's model is known; else, with tokens not split by model or more models unpriced,
 * `$3,412.50+` (the figure counts the priced tokens only), or `cost unknown` when none is priced.
 */
export function formatTotalsCost(t: TotalsCostLike): string {
  if (t.complete) return formatUsd(t.usd ?? 0);
  const unsplit = t.byModel.some((m) => m.model === null);
  const unpriced = t.byModel.filter((m) => m.model !== null && m.usd === null).length;
  if (!unsplit && unpriced > 0 && unpriced <= 2) {
    const byModel = Object.fromEntries(t.byModel.map((m) => [m.model ?? '', m.usd]));
    return formatCost({ usd: t.usd, complete: false, byModel });
  }
  return t.usd === null ? 'cost unknown' : `${formatUsd(t.usd)}+`;
}

/**
 * A model by name wherever tokens are split by model: `''` holds the tokens of lines that named
 * none, and null (the totals) those of sessions that used several and were not split.
 */
export function modelLabel(model: string | null): string {
  if (model === null) return 'several models, not split';
  return model || 'no model named';
}

/** One model's dollars, or `no price` for a model without one. */
export function modelCost(usd: number | null): string {
  return usd === null ? 'no price' : formatUsd(usd);
}
