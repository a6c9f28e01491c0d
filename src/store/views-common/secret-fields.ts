/**
 * What the `session_secrets` view keeps of a summary's `secrets` (core/documents.ts): the total
 * and the counts by rule, or null when the summary has none (written before secrets were counted).
 * Documents are validated on the way in; this only guards against a shape it cannot store.
 */
import type { SessionSecretsRow } from '../contract.js';

export function secretFields(doc: Record<string, unknown>): Omit<SessionSecretsRow, 'sessionId'> | null {
  const s = doc.secrets;
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return null;
  const { total, byRule } = s as { total?: unknown; byRule?: unknown };
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0) return null;
  const rules: Record<string, number> = {};
  if (byRule !== null && typeof byRule === 'object' && !Array.isArray(byRule))
    for (const [k, n] of Object.entries(byRule)) if (typeof n === 'number') rules[k] = n;
  return { total, byRule: rules };
}
