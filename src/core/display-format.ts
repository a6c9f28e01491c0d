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
