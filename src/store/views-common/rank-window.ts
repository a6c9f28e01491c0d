/**
 * How far an unfiltered search ranks. A word found in a large share of the history would
 * otherwise cost a ranking of every match on each search; both engines rank the most recently
 * indexed matches instead — this many, or as many as the requested page reaches.
 */
export const RANK_WINDOW = 5000;

export function rankWindow(offset: number, limit: number): number {
  return Math.max(RANK_WINDOW, offset + limit);
}
