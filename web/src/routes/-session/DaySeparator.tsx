/** The line the reader draws where the date changes: the day, its full time on hover. */
import { Divider, Text } from '@mantine/core';
import { dayLabel } from '../../lib/day-breaks.js';
import { formatUtc } from '../../lib/format.js';

export function DaySeparator({ at }: { at: string }) {
  return (
    <Divider
      my={6}
      labelPosition="center"
      data-testid="day-separator"
      label={
        <Text size="xs" c="dimmed" title={`${formatUtc(at)} (${at})`}>
          {dayLabel(at)}
        </Text>
      }
    />
  );
}
