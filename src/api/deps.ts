/** What the route groups are built from: the store, settings and a few facts about the process. */
import type { Settings } from '../config/settings.js';
import type { Store } from '../store/contract.js';
import type { ImportStatus, WatchStatus } from './schemas/health.js';

export interface ApiDeps {
  store: Store;
  settings: Settings;
  /** Build version shown in the UI header and /api/health. */
  version: string;
  /** Progress of the first-start import (the server supplies it; idle otherwise). */
  importStatus: () => ImportStatus;
  /** Which transcript trees are watched (the server supplies it; off otherwise). */
  watchStatus: () => WatchStatus;
  /** Clock for derived status; injectable for tests. */
  now: () => number;
  startedAt: number;
  /** Whether requests need a bearer token (told to clients through the blueprint). */
  tokenRequired: boolean;
}

/** Page size ceilings per route: `limit` above them is clamped, not refused. */
export const MAX_LIMIT = {
  sessions: 500,
  transcript: 1000,
  turns: 1000,
  events: 1000,
  search: 100,
  allDocs: 10_000,
  objects: 10_000,
} as const;

export const DEFAULT_LIMIT = {
  events: 100,
  turns: 50,
  search: 20,
  allDocs: 1000,
  objects: 1000,
} as const;

/** `limit` defaulted and clamped into [0, max]. */
export function clampLimit(limit: number | undefined, dflt: number, max: number): number {
  return Math.min(max, Math.max(0, limit ?? dflt));
}
