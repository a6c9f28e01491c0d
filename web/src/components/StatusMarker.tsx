/**
 * A session's status as the seed displays it (§1.1, §3): running is shown as "live" with a
 * pulsing dot, abandoned as "incomplete" with a hollow ring, ended as a square alone. The API's
 * word stays in `data-status`; the marker's accessible name (and its tooltip) says what it means,
 * so colour and shape are never the only signal. The CLI prints the same: ● live, ○ incomplete,
 * ■ ended.
 */
import { Group, Text, VisuallyHidden } from '@mantine/core';
import { HoverTooltip } from './HoverTooltip.js';

export type SessionStatus = 'running' | 'abandoned' | 'ended';

/** The word shown next to the marker; the ended square stands alone. */
export const STATUS_LABEL: Record<SessionStatus, string | null> = {
  running: 'live',
  abandoned: 'incomplete',
  ended: null,
};

/** The marker's accessible name. */
export const STATUS_NAME: Record<SessionStatus, string> = {
  running: 'live',
  abandoned: 'incomplete',
  ended: 'ended',
};

const MEANING: Record<SessionStatus, string> = {
  running: 'live: recorded activity within the live window and no end yet',
  abandoned: 'incomplete: hook-recorded, no end recorded, silent for longer than the live window',
  ended: 'ended (finished)',
};

export function StatusMarker({ status, withLabel = true }: { status: SessionStatus; withLabel?: boolean }) {
  const label = STATUS_LABEL[status];
  return (
    <HoverTooltip label={MEANING[status]} openDelay={400}>
      <Group
        gap={6}
        wrap="nowrap"
        data-testid="status"
        data-status={status}
        style={{ display: 'inline-flex' }}
      >
        <span className="ct-status" data-status={status} aria-hidden />
        {withLabel && label ? (
          <Text span size="xs" c="dimmed" data-testid="status-label">
            {label}
          </Text>
        ) : (
          <VisuallyHidden>{STATUS_NAME[status]}</VisuallyHidden>
        )}
      </Group>
    </HoverTooltip>
  );
}
