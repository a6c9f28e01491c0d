/**
 * Finds likely secrets in a text with a maintained rule set — secretlint's recommended preset
 * (AWS, GCP, GitHub, GitLab, Slack, npm, OpenAI, Anthropic and other keys, private keys,
 * credentials in URLs and connection strings) — plus config.json's own patterns
 * (`secrets.patterns`, settings.ts). Runs offline: the preset is bundled in its package.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';

/** A pattern of the user's own: findings are named `rule`. */
export interface SecretPattern {
  rule: string;
  regex: RegExp;
}

/** One likely secret: where it is (UTF-16 offsets, end exclusive) and the rule that found it. */
export interface SecretFinding {
  rule: string;
  start: number;
  end: number;
}

const CONFIG: SecretLintCoreConfig = {
  rules: [{ id: recommended.meta.id, rule: recommended, options: {} }],
};

const RULE_PREFIX = '@secretlint/secretlint-rule-';

/** `@secretlint/secretlint-rule-github` → `github`: the name a redaction shows. */
export function ruleName(ruleId: string): string {
  return ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
}

/** Likely secrets in `text`, in order of position. */
export async function findSecrets(
  text: string,
  patterns: readonly SecretPattern[] = [],
): Promise<SecretFinding[]> {
  const found: SecretFinding[] = [];
  if (text.length > 0) {
    const result = await lintSource({
      source: { filePath: 'transcript.txt', content: text, contentType: 'text', ext: '.txt' },
      options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
    });
    for (const m of result.messages)
      found.push({ rule: ruleName(m.ruleId), start: m.range[0], end: m.range[1] });
  }
  for (const p of patterns) {
    const flags = p.regex.flags.includes('g') ? p.regex.flags : `${p.regex.flags}g`;
    for (const m of text.matchAll(new RegExp(p.regex.source, flags)))
      if (m[0].length > 0) found.push({ rule: p.rule, start: m.index, end: m.index + m[0].length });
  }
  return found.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Between texts scanned together: no rule matches across a line that holds only this. */
const SEPARATOR = '\n\u0000\n';

/**
 * The findings of many texts, scanned as one (secretlint costs about a millisecond a call before
 * any text is read: a session's thousand entries one by one took a second, together 30 ms).
 */
export async function findSecretsInEach(
  texts: readonly string[],
  patterns: readonly SecretPattern[] = [],
): Promise<SecretFinding[][]> {
  const starts: number[] = [];
  let at = 0;
  for (const t of texts) {
    starts.push(at);
    at += t.length + SEPARATOR.length;
  }
  const all = await findSecrets(texts.join(SEPARATOR), patterns);
  const out: SecretFinding[][] = texts.map(() => []);
  let i = 0;
  for (const f of all) {
    while (i + 1 < starts.length && starts[i + 1]! <= f.start) i++;
    const base = starts[i]!;
    const len = texts[i]!.length;
    // A match cannot end past its own text but for a separator it swallowed: clip it.
    if (f.start - base >= len) continue;
    out[i]!.push({ rule: f.rule, start: f.start - base, end: Math.min(f.end - base, len) });
  }
  return out;
}
