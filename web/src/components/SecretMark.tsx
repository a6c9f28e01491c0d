/**
 * Marks an entry that holds likely secrets, as ingest counted them (the entry's `secrets`): a
 * small key icon whose title names the rules and counts — never the secret itself.
 */
import { Text } from '@mantine/core';

/** The rules of one or more entries' counts, merged: `github 2, aws 1`; empty when none. */
export function secretRules(...counts: Array<Record<string, number> | undefined>): string {
  const sum = new Map<string, number>();
  for (const c of counts)
    for (const [rule, n] of Object.entries(c ?? {})) sum.set(rule, (sum.get(rule) ?? 0) + n);
  return [...sum]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
}

export function SecretMark({ rules }: { rules: string }) {
  if (!rules) return null;
  const title = `Likely secret: ${rules}`;
  return (
    <Text
      span
      size="xs"
      c="yellow.5"
      title={title}
      aria-label={title}
      data-testid="secret-mark"
      data-rules={rules}
    >
      ⚿
    </Text>
  );
}
