/**
 * Settings (DESIGN §11) read from `config.json` in the config dir. Every setting has a default and
 * a range: a number out of range is clamped, anything that is not a number (or a numeric string)
 * falls back to the default. Problems are returned as warnings for the log, never thrown — a typo
 * in config.json must not stop the service from starting.
 *
 * config.json may nest (`{"userSettings": {"transcriptPageSize": 50}}`) or use dotted keys
 * (`{"userSettings.transcriptPageSize": 50}`); nested wins when both are given.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ACTIVITY_FLOOR_MS } from '../core/active-time.js';

export interface Settings {
  userSettings: {
    /** Transcript entries per page in the UI reader. */
    transcriptPageSize: number;
    /** Entries the UI loads before offering a "load the rest" button. */
    transcriptAutoLoadMax: number;
    /** Sessions per page of the session list (also the API's default `limit`). */
    sessionListPageSize: number;
  };
  system: {
    sessions: {
      /** Gaps longer than this are left out of active time. */
      idleThresholdMs: number;
      /** A session silent for longer than this is no longer `running`. */
      liveWindowMs: number;
    };
  };
}

export interface SettingSpec {
  key: string;
  default: number;
  min: number;
  max: number;
  description: string;
}

const DAY = 86_400_000;

/** Every setting, its default and its clamp range (docs/settings.md lists the same table). */
export const SETTING_SPECS: readonly SettingSpec[] = [
  {
    key: 'userSettings.transcriptPageSize',
    default: 100,
    min: 10,
    max: 1000,
    description: 'transcript entries per page in the UI reader',
  },
  {
    key: 'userSettings.transcriptAutoLoadMax',
    default: 2000,
    min: 100,
    max: 100_000,
    description: 'entries the UI loads before showing a "load the rest" button',
  },
  {
    key: 'userSettings.sessionListPageSize',
    default: 100,
    min: 10,
    max: 500,
    description: 'sessions per page of the list; the default `limit` of GET /api/sessions',
  },
  {
    key: 'system.sessions.idleThresholdMs',
    default: 300_000,
    min: ACTIVITY_FLOOR_MS,
    max: DAY,
    description: 'gaps between activity longer than this are left out of active time',
  },
  {
    key: 'system.sessions.liveWindowMs',
    default: DAY,
    min: 60_000,
    max: 30 * DAY,
    description: 'a session silent for longer than this is no longer running (ended or abandoned)',
  },
];

const numberLike = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\s*-?\d+(\.\d+)?\s*$/)
      .transform(Number),
  ])
  .pipe(z.number().finite());

export interface LoadedSettings {
  settings: Settings;
  /** One line per value that was clamped, ignored or unreadable. */
  warnings: string[];
}

function lookup(raw: Record<string, unknown>, key: string): unknown {
  let node: unknown = raw;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      node = undefined;
      break;
    }
    node = (node as Record<string, unknown>)[part];
  }
  return node !== undefined ? node : raw[key];
}

/** Settings from an already-parsed config value (anything: nonsense falls back to defaults). */
export function resolveSettings(raw: unknown): LoadedSettings {
  const warnings: string[] = [];
  const obj: Record<string, unknown> =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (raw !== undefined && obj !== raw)
    warnings.push('config.json is not a JSON object; using default settings');
  const values: Record<string, number> = {};
  for (const spec of SETTING_SPECS) {
    const given = lookup(obj, spec.key);
    if (given === undefined) {
      values[spec.key] = spec.default;
      continue;
    }
    const parsed = numberLike.safeParse(given);
    if (!parsed.success) {
      warnings.push(
        `${spec.key}: ${JSON.stringify(given)} is not a number; using the default ${spec.default}`,
      );
      values[spec.key] = spec.default;
      continue;
    }
    const n = Math.round(parsed.data);
    const clamped = Math.min(spec.max, Math.max(spec.min, n));
    if (clamped !== n)
      warnings.push(`${spec.key}: ${n} is outside ${spec.min}..${spec.max}; using ${clamped}`);
    values[spec.key] = clamped;
  }
  const v = (key: string) => values[key]!;
  return {
    warnings,
    settings: {
      userSettings: {
        transcriptPageSize: v('userSettings.transcriptPageSize'),
        transcriptAutoLoadMax: v('userSettings.transcriptAutoLoadMax'),
        sessionListPageSize: v('userSettings.sessionListPageSize'),
      },
      system: {
        sessions: {
          idleThresholdMs: v('system.sessions.idleThresholdMs'),
          liveWindowMs: v('system.sessions.liveWindowMs'),
        },
      },
    },
  };
}

/** The defaults, as a Settings value. */
export function defaultSettings(): Settings {
  return resolveSettings(undefined).settings;
}

/** Reads `config.json`; a missing file means defaults, an unparseable one defaults plus a warning. */
export function loadSettings(configFile: string): LoadedSettings {
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return resolveSettings(undefined);
    return {
      ...resolveSettings(undefined),
      warnings: [`cannot read ${configFile}: ${(err as Error).message}`],
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return {
      ...resolveSettings(undefined),
      warnings: [`${configFile} is not valid JSON (${(err as Error).message}); using default settings`],
    };
  }
  const loaded = resolveSettings(raw);
  return { ...loaded, warnings: loaded.warnings.map((w) => `${configFile}: ${w}`) };
}
