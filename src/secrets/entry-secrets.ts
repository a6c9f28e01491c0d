/**
 * The likely secrets of one transcript entry, counted by rule at ingest: the entry's texts that
 * pass the pre-filter (prefilter.ts), or match one of config.json's own patterns, go to
 * secretlint (scan.ts); the others are not scanned at all. Only counts and rule names are kept,
 * never the secret. The texts are those a share redacts: the text, the thinking, each tool call's
 * input (as pretty JSON) and each tool result, as projected (a field is cut at 16 KB, caps.ts).
 * secretlint is loaded on the first text that needs it, so the hook seldom loads it.
 */
import type { ProjectedEntry } from '../core/documents.js';
import { mayHoldSecret } from './prefilter.js';
import type { SecretPattern } from './scan.js';

/** Counts by rule (`github`, `aws`, a config pattern's name…). */
export type SecretCounts = Record<string, number>;

/** The texts of an entry that a share shows (and redacts), in a fixed order. */
export function entryTexts(e: ProjectedEntry): string[] {
  const out: string[] = [];
  if (e.text) out.push(e.text);
  if (e.thinking) out.push(e.thinking);
  for (const t of e.toolUses ?? []) {
    const input = typeof t.input === 'string' ? t.input : (JSON.stringify(t.input, null, 2) ?? '');
    if (input) out.push(input);
  }
  for (const r of e.toolResults ?? []) if (r.content) out.push(r.content);
  return out;
}

/** Whether `text` needs the full scan: it passes the pre-filter or matches a pattern of the user's. */
export function needsScan(text: string, patterns: readonly SecretPattern[]): boolean {
  if (mayHoldSecret(text)) return true;
  for (const p of patterns) {
    p.regex.lastIndex = 0;
    if (p.regex.test(text)) return true;
  }
  return false;
}

let scanModule: Promise<typeof import('./scan.js')> | null = null;

/** Counts by rule of the likely secrets in `texts`, scanning only those that need it; null if none. */
export async function countSecrets(
  texts: readonly string[],
  patterns: readonly SecretPattern[] = [],
): Promise<SecretCounts | null> {
  const todo = texts.filter((t) => needsScan(t, patterns));
  if (todo.length === 0) return null;
  scanModule ??= import('./scan.js');
  const { findSecretsInEach } = await scanModule;
  // A Map, not an object: a pattern of the user's may be named `__proto__`.
  const counts = new Map<string, number>();
  for (const found of await findSecretsInEach(todo, patterns))
    for (const f of found) counts.set(f.rule, (counts.get(f.rule) ?? 0) + 1);
  return counts.size ? Object.fromEntries(counts) : null;
}

/** Whether any of an entry's texts needs the full scan (cheap: most entries need none). */
export function entryNeedsScan(entry: ProjectedEntry, patterns: readonly SecretPattern[] = []): boolean {
  return entryTexts(entry).some((t) => needsScan(t, patterns));
}

/** Counts by rule of the likely secrets in one entry; null if none. */
export function countEntrySecrets(
  entry: ProjectedEntry,
  patterns: readonly SecretPattern[] = [],
): Promise<SecretCounts | null> {
  return countSecrets(entryTexts(entry), patterns);
}
