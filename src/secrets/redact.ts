/**
 * The one redaction step of everything shared (share's HTML and Markdown, the API's share
 * route): each likely secret becomes `[redacted: <rule>]`, and the counts by rule are kept for
 * the report — never the secret itself.
 */
import { findSecretsInEach, type SecretFinding, type SecretPattern } from './scan.js';

/** Counts of redactions by rule. */
export type RedactionCounts = Record<string, number>;

/** `text` with each finding replaced; overlapping findings are merged under the first rule. */
export function applyRedactions(text: string, findings: readonly SecretFinding[]): string {
  let out = '';
  let at = 0;
  for (const f of [...findings].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (f.end <= at) continue; // inside one already replaced
    out += text.slice(at, Math.max(at, f.start)) + `[redacted: ${f.rule}]`;
    at = f.end;
  }
  return out + text.slice(at);
}

/** Redacts many texts in one scan; returns them in order, with the counts by rule. */
export async function redactTexts(
  texts: readonly string[],
  patterns: readonly SecretPattern[] = [],
): Promise<{ texts: string[]; counts: RedactionCounts }> {
  const findings = await findSecretsInEach(texts, patterns);
  const counts: RedactionCounts = {};
  const out = texts.map((t, i) => {
    const f = findings[i]!;
    for (const x of mergedRules(f)) counts[x] = (counts[x] ?? 0) + 1;
    return f.length ? applyRedactions(t, f) : t;
  });
  return { texts: out, counts };
}

/** The rule of each replacement applyRedactions makes (overlaps count once). */
function mergedRules(findings: readonly SecretFinding[]): string[] {
  const rules: string[] = [];
  let at = 0;
  for (const f of [...findings].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (f.end <= at) continue;
    rules.push(f.rule);
    at = f.end;
  }
  return rules;
}

/** "github 2, slack 1" — a count by rule, for a report; "none" when nothing was found. */
export function describeCounts(counts: RedactionCounts): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length ? entries.map(([r, n]) => `${r} ${n}`).join(', ') : 'none';
}
