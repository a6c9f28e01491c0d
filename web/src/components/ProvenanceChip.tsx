/** `live` (recorded while it ran) or `backfilled` (imported afterwards from the transcript). */
import { Badge } from '@mantine/core';

export function ProvenanceChip({ provenance }: { provenance: 'live' | 'backfilled' }) {
  return (
    <Badge
      size="xs"
      variant="outline"
      tt="none"
      color={provenance === 'live' ? 'green' : 'gray'}
      data-testid="provenance"
    >
      {provenance}
    </Badge>
  );
}
