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
import { LIST_PRICES, withListPrices, type ModelPrice, type PriceList } from '../core/pricing.js';
import { resolveSecretPatterns } from '../secrets/patterns.js';
import type { SecretPattern } from '../secrets/scan.js';

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
  /** Model prices (pricing.ts): the list prices, under config.json's own `prices`. */
  prices: PriceList;
  /** config.json's `secrets.patterns`: redacted and counted beside secretlint's rules (secrets/). */
  secretPatterns: SecretPattern[];
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
  const prices = resolvePrices(obj.prices, warnings);
  const secretPatterns = resolveSecretPatterns(lookup(obj, 'secrets.patterns'), warnings);
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
      prices,
      secretPatterns,
    },
  };
}

const price = z.number().finite().nonnegative();
const modelPriceSchema = z.object({
  input: price,
  output: price,
  cacheWrite: price.optional(),
  cacheRead: price.optional(),
});

/**
 * config.json's `prices`: `{"<model>": {"input": 3, "output": 15, "cacheWrite": 3.75, "cacheRead":
 * 0.3}}`, US dollars per million tokens, a key ending in `*` for every model starting so. A cache
 * price left out is the input price (never less than the bill). A bad entry is left out with a
 * warning; the others still count.
 */
function resolvePrices(raw: unknown, warnings: string[]): PriceList {
  if (raw === undefined) return LIST_PRICES;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(`prices: ${JSON.stringify(raw)} is not an object of model prices; using the list prices`);
    return LIST_PRICES;
  }
  const mine: Array<[string, ModelPrice]> = [];
  for (const [model, given] of Object.entries(raw)) {
    const parsed = modelPriceSchema.safeParse(given);
    if (model === '' || !parsed.success) {
      const why = parsed.success
        ? 'a model name is needed'
        : 'needs input and output prices (US dollars per million tokens, not negative)';
      warnings.push(`prices.${model}: ${JSON.stringify(given)} ${why}; left out`);
      continue;
    }
    const { input, output, cacheWrite = input, cacheRead = input } = parsed.data;
    mine.push([model, { input, output, cacheWrite, cacheRead }]);
  }
  return withListPrices(Object.fromEntries(mine));
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
