/**
 * config.json's own secret patterns, read without zod: the hook counts secrets at ingest too, and
 * its imports stay light (test/live/hook-import-graph.test.ts). settings.ts reads them the same way.
 */
import { readFileSync } from 'node:fs';
import type { SecretPattern } from './scan.js';

/**
 * config.json's `secrets.patterns`: `{"<rule>": "<regular expression>"}`, each match redacted as
 * `[redacted: <rule>]` in what is shared and counted at ingest. A pattern that does not compile
 * (or that matches the empty text, which would find a secret everywhere) is left out with a warning.
 */
export function resolveSecretPatterns(raw: unknown, warnings: string[]): SecretPattern[] {
  if (raw === undefined) return [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(
      `secrets.patterns: ${JSON.stringify(raw)} is not an object of rule names and patterns; ignored`,
    );
    return [];
  }
  const out: SecretPattern[] = [];
  for (const [rule, source] of Object.entries(raw)) {
    if (!/^[\w.-]{1,64}$/.test(rule) || typeof source !== 'string') {
      warnings.push(
        `secrets.patterns.${rule}: needs a name of letters, digits, ".", "_" or "-" and a regular expression as a string; left out`,
      );
      continue;
    }
    let regex: RegExp;
    try {
      regex = new RegExp(source, 'g');
    } catch (err) {
      warnings.push(`secrets.patterns.${rule}: ${(err as Error).message}; left out`);
      continue;
    }
    if (regex.test('')) {
      warnings.push(`secrets.patterns.${rule}: matches the empty text; left out`);
      continue;
    }
    out.push({ rule, regex });
  }
  return out;
}

/** The patterns of the config file at `path` (none when it is absent or unreadable; warnings dropped). */
export function readSecretPatterns(path: string): SecretPattern[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
  // As settings.ts's lookup: `{"secrets": {"patterns": …}}`, else a dotted key `"secrets.patterns"`.
  const obj =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const nested = obj.secrets;
  const patterns =
    nested !== null &&
    typeof nested === 'object' &&
    !Array.isArray(nested) &&
    (nested as Record<string, unknown>).patterns !== undefined
      ? (nested as Record<string, unknown>).patterns
      : obj['secrets.patterns'];
  return resolveSecretPatterns(patterns, []);
}
