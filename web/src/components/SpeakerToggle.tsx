/**
 * The three-way Both / You / Claude toggle: a session's transcript or one side of it, and the
 * Turns page's sides. `1` `2` `3` choose the same three where a page registers them.
 */
import { SegmentedControl } from '@mantine/core';
import type { sessionViews } from '../lib/search-params.js';

export type Speaker = (typeof sessionViews)[number];

const DATA: { value: Speaker; label: string }[] = [
  { value: 'both', label: 'Both' },
  { value: 'you', label: 'You' },
  { value: 'claude', label: 'Claude' },
];

export function SpeakerToggle({
  value,
  onChange,
  testId = 'view-toggle',
}: {
  value: Speaker;
  onChange: (value: Speaker) => void;
  testId?: string;
}) {
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange(v as Speaker)}
      data={DATA}
      data-testid={testId}
    />
  );
}
