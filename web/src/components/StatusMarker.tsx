/**
 * A session's status: running (live) = pulsing dot, abandoned (incomplete) = hollow ring,
 * ended (finished) = square — with its label, so colour and shape are never the only signal.
 */
import { Group, Text, Tooltip } from '@mantine/core';

export type SessionStatus = 'running' | 'abandoned' | 'ended';

const MEANING: Record<SessionStatus, string> = {
  running: 'live: recorded activity within the live window and no end yet',
  abandoned: 'incomplete: hook-recorded, no end recorded, silent for longer than the live window',
  ended: 'finished',
};

export function StatusMarker({ status, withLabel = true }: { status: SessionStatus; withLabel?: boolean }) {
  return (
    <Tooltip label={MEANING[status]} openDelay={400}>
      <Group
        gap={6}
        wrap="nowrap"
        data-testid="status"
        data-status={status}
        style={{ display: 'inline-flex' }}
      >
        <span className="ct-status" data-status={status} aria-hidden />
        {withLabel && (
          <Text span size="xs" c="dimmed">
            {status}
          </Text>
        )}
      </Group>
    </Tooltip>
  );
}
