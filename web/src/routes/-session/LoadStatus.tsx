/**
 * Below a reader: how much is loaded, and past the ceiling the button that loads the rest. Above
 * it, when the reader opened deep in the transcript: how many entries come before, loading as the
 * reader scrolls up (or at once with the button).
 */
import { Button, Group, Loader, Text } from '@mantine/core';
import { formatCount, formatCountOf } from '../../lib/format.js';
import type { TranscriptState } from './use-transcript.js';

export function LoadStatus({ t, autoLoadMax }: { t: TranscriptState; autoLoadMax: number }) {
  if (t.total === 0) return null;
  return (
    <Group justify="center" gap="sm" py="md" data-testid="load-status">
      {t.hasMore && (t.isFetching || t.loadingRest) && <Loader size="xs" />}
      <Text size="xs" c="dimmed" data-testid="loaded-count">
        {t.hasMore
          ? `${formatCount(t.loaded)} of ${formatCountOf(t.total, 'entry', 'entries')} loaded`
          : `All ${formatCountOf(t.total, 'entry', 'entries')} loaded`}
      </Text>
      {t.showLoadRest && (
        <Button size="xs" variant="light" onClick={t.loadRest} data-testid="load-rest">
          Load the rest ({formatCount(t.total - t.loaded)} more; {formatCount(autoLoadMax)} load by
          themselves)
        </Button>
      )}
    </Group>
  );
}

export function EarlierEntries({ t }: { t: TranscriptState }) {
  if (t.earlier === 0) return null;
  return (
    <Group justify="center" gap="sm" py={4} data-testid="earlier-entries">
      {t.loadingEarlier && <Loader size="xs" />}
      <Text size="xs" c="dimmed">
        {formatCount(t.earlier)} earlier {t.earlier === 1 ? 'entry loads' : 'entries load'} as you scroll up
      </Text>
      <Button
        size="compact-xs"
        variant="light"
        onClick={() => t.loadEarlier(true)}
        disabled={t.loadingEarlier}
        data-testid="load-earlier"
      >
        Load earlier entries
      </Button>
    </Group>
  );
}
