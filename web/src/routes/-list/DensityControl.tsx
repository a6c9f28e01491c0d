/**
 * The session list's density: comfortable rows (title, then the facts under it) or compact ones
 * (one line each, so 20+ sessions fit a 1440×900 screen). Kept in this browser beside the column
 * choice (localStorage, followed by its other tabs); not URL state.
 */
import { Button } from '@mantine/core';
import { IconBaselineDensityMedium, IconBaselineDensitySmall } from '@tabler/icons-react';
import { useRememberedToggle } from '../../lib/remembered-toggle.js';

/** Stored as `open` (compact) / `closed` (comfortable), as remembered-toggle.ts writes it. */
export const COMPACT_KEY = 'transcripts.listCompact.v1';

export function useCompactList(): [boolean, () => void] {
  return useRememberedToggle(COMPACT_KEY, false);
}

export function DensityControl({ compact, onToggle }: { compact: boolean; onToggle: () => void }) {
  const Icon = compact ? IconBaselineDensitySmall : IconBaselineDensityMedium;
  return (
    <Button
      size="xs"
      variant={compact ? 'light' : 'default'}
      data-testid="density-toggle"
      aria-pressed={compact}
      aria-label="Compact rows"
      title={
        compact ? 'Compact rows: one line per session (click for comfortable rows)' : 'Show compact rows'
      }
      leftSection={<Icon size={14} aria-hidden />}
      onClick={onToggle}
    >
      Compact
    </Button>
  );
}
