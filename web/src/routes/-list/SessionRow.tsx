/**
 * One row of the session list: status, title, project, model, host, times, tokens, provenance.
 * The list is ordered by last activity unless sorted otherwise, so that is the first time shown; the
 * start follows. The fact the list is sorted by stands out.
 * `re` marks the words of the list's free-text filter in the title and project.
 */
import { Group, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import { HighlightedText } from '../../components/HighlightedText.js';
import { ProvenanceChip } from '../../components/ProvenanceChip.js';
import { StatusMarker } from '../../components/StatusMarker.js';
import {
  formatCount,
  formatDuration,
  formatTimestamp,
  formatTokens,
  formatUtc,
  shortModel,
  totalTokens,
} from '../../lib/format.js';
import { DEFAULT_SORT, type SessionSortKey } from '../../lib/session-sort.js';
import type { Session } from '../../queries/api.js';

function Fact({
  label,
  children,
  testId,
  sorted = false,
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
  /** The list is ordered by this fact: it stands out. */
  sorted?: boolean;
}) {
  return (
    <Text
      span
      size="xs"
      c={sorted ? 'blue.3' : 'dimmed'}
      data-testid={testId}
      data-sorted={sorted ? '' : undefined}
      style={{ whiteSpace: 'nowrap' }}
    >
      {label}{' '}
      <Text span size="xs" c={sorted ? 'gray.1' : 'gray.4'} fw={sorted ? 600 : undefined}>
        {children}
      </Text>
    </Text>
  );
}

export const SessionRow = memo(function SessionRow({
  s,
  re = null,
  sortedBy = DEFAULT_SORT,
}: {
  s: Session;
  re?: RegExp | null;
  /** The list's order: that fact stands out. */
  sortedBy?: SessionSortKey;
}) {
  return (
    <Link
      to="/sessions/$id"
      params={{ id: s.id }}
      data-testid="session-row"
      data-session-id={s.id}
      style={{ display: 'block', textDecoration: 'none', color: 'inherit' }}
    >
      <Paper withBorder p="xs" radius="sm" className="ct-row">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <StatusMarker status={s.status} />
            <Text fw={600} size="sm" truncate data-testid="session-title">
              {s.title !== null ? (
                <HighlightedText text={s.title} re={re} />
              ) : (
                <Text span c="dimmed">
                  (untitled) {s.id}
                </Text>
              )}
            </Text>
          </Group>
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            <ProvenanceChip provenance={s.provenance} />
          </Group>
        </Group>
        <Group gap="md" mt={4} style={{ rowGap: 2 }}>
          <Fact label="project">{s.project ? <HighlightedText text={s.project} re={re} /> : '—'}</Fact>
          <Fact label="model">{shortModel(s.model)}</Fact>
          <Fact label="host">{s.hostname ?? '—'}</Fact>
          <Fact label="last active" testId="last-activity" sorted={sortedBy === 'lastActivity'}>
            <span
              title={`last activity ${formatUtc(s.lastActivity)}${sortedBy === 'lastActivity' ? " (the list's order)" : ''}`}
            >
              {formatTimestamp(s.lastActivity ?? s.startedAt)}
            </span>
          </Fact>
          <Fact label="started" testId="started" sorted={sortedBy === 'startedAt'}>
            {formatTimestamp(s.startedAt)}
          </Fact>
          <Fact label="runtime" testId="runtime" sorted={sortedBy === 'runtime'}>
            {formatDuration(s.runtimeMs)}
          </Fact>
          <Fact label="active" testId="active-time">
            {formatDuration(s.activeTimeMs)}
          </Fact>
          <Fact label="tokens" testId="tokens" sorted={sortedBy === 'tokens'}>
            {formatTokens(totalTokens(s.tokens))}
          </Fact>
          <Fact label="entries" testId="entries" sorted={sortedBy === 'entries'}>
            {formatCount(s.counts.entries)}
          </Fact>
        </Group>
      </Paper>
    </Link>
  );
});
