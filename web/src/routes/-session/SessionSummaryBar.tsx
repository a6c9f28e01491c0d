/**
 * The session in one line under its title, so the conversation starts near the top: project,
 * model, start, active time, tokens and cost (each with its full value on hover). Everything else
 * is in the details panel below it, folded by default (SessionDetails).
 */
import { Group, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  COST_NOTE,
  formatCost,
  formatDuration,
  formatTokens,
  formatUtc,
  shortModel,
  totalTokens,
} from '../../lib/format.js';
import type { SessionDetail } from '../../queries/api.js';

function Fact({
  label,
  title,
  children,
  testId,
}: {
  label: string;
  title?: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Text size="sm" span title={title} data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
      <Text span size="xs" c="dimmed">
        {label}{' '}
      </Text>
      {children}
    </Text>
  );
}

export function SessionSummaryBar({ s }: { s: SessionDetail }) {
  const models =
    s.models.length > 1 ? `${shortModel(s.models[0])} +${s.models.length - 1}` : shortModel(s.models[0]);
  return (
    <Group gap="md" style={{ rowGap: 2 }} data-testid="session-summary">
      <Fact label="project" title={s.cwd ?? undefined} testId="summary-project">
        {s.project ?? '—'}
      </Fact>
      <Fact label="model" title={s.models.join(', ') || undefined} testId="summary-model">
        {models}
      </Fact>
      <Fact label="started" testId="summary-started">
        {formatUtc(s.startedAt)}
      </Fact>
      <Fact label="active" title={`runtime ${formatDuration(s.runtimeMs)}`} testId="summary-active">
        {formatDuration(s.activeTimeMs)}
      </Fact>
      <Fact
        label="tokens"
        title={`${formatTokens(s.tokens.input)} in · ${formatTokens(s.tokens.output)} out · ${formatTokens(s.tokens.cacheWrite)} cache write · ${formatTokens(s.tokens.cacheRead)} cache read`}
        testId="summary-tokens"
      >
        {formatTokens(totalTokens(s.tokens))}
      </Fact>
      <Tooltip label={COST_NOTE} multiline w={320}>
        <span>
          <Fact label="cost" testId="summary-cost">
            {formatCost(s.cost)}
          </Fact>
        </span>
      </Tooltip>
    </Group>
  );
}
