/**
 * One row of the session list: status and title, then the facts the person chose to show
 * (columns menu, ../../lib/session-columns.ts) in their order — provenance beside the title;
 * project, model, host, times, tokens, cost, entries under it. By default every fact but the cost
 * shows, last activity first of the times (the list's usual order), the start after it. The fact
 * the list is sorted by stands out. `re` marks the words of the list's free-text filter in the
 * title and project.
 */
import { ListStar, type AnnotationSummary } from '../../components/ListStar.js';
import { Group, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Fragment, memo, type ReactNode } from 'react';
import { HighlightedText } from '../../components/HighlightedText.js';
import { ProvenanceChip } from '../../components/ProvenanceChip.js';
import { StatusMarker } from '../../components/StatusMarker.js';
import {
  formatCost,
  formatCount,
  formatDuration,
  formatTimestamp,
  formatTokens,
  formatUtc,
  shortModel,
  totalTokens,
} from '../../lib/format.js';
import { DEFAULT_SORT, type SessionSortKey } from '../../lib/session-sort.js';
import {
  DEFAULT_COLUMNS,
  rowFacts,
  SORTED_FACT,
  type DetailFact,
  type SessionFact,
} from '../../lib/session-columns.js';
import type { Session } from '../../queries/api.js';

function Fact({
  fact,
  label,
  children,
  testId,
  sorted = false,
}: {
  fact: DetailFact;
  label: string;
  children: ReactNode;
  testId?: string;
  /** The list is ordered by this fact: it stands out. */
  sorted?: boolean;
}) {
  // Plain spans (styles.css, .ct-fact), not Mantine's Text: a row shows up to ten facts, and the
  // list mounts rows as it scrolls.
  return (
    <span className="ct-fact" data-testid={testId} data-fact={fact} data-sorted={sorted ? '' : undefined}>
      {label} <span className="ct-fact-value">{children}</span>
    </span>
  );
}

/** Each detail fact as a row shows it; `sorted` when the list is ordered by it. */
const DETAILS: Record<DetailFact, (s: Session, re: RegExp | null, sorted: boolean) => ReactNode> = {
  project: (s, re) => (
    <Fact fact="project" label="project">
      {s.project ? <HighlightedText text={s.project} re={re} /> : '—'}
    </Fact>
  ),
  model: (s) => (
    <Fact fact="model" label="model">
      {shortModel(s.model)}
    </Fact>
  ),
  host: (s) => (
    <Fact fact="host" label="host">
      {s.hostname ?? '—'}
    </Fact>
  ),
  lastActivity: (s, _re, sorted) => (
    <Fact fact="lastActivity" label="last active" testId="last-activity" sorted={sorted}>
      <span title={`last activity ${formatUtc(s.lastActivity)}${sorted ? " (the list's order)" : ''}`}>
        {formatTimestamp(s.lastActivity ?? s.startedAt)}
      </span>
    </Fact>
  ),
  startedAt: (s, _re, sorted) => (
    <Fact fact="startedAt" label="started" testId="started" sorted={sorted}>
      {formatTimestamp(s.startedAt)}
    </Fact>
  ),
  runtime: (s, _re, sorted) => (
    <Fact fact="runtime" label="runtime" testId="runtime" sorted={sorted}>
      {formatDuration(s.runtimeMs)}
    </Fact>
  ),
  activeTime: (s) => (
    <Fact fact="activeTime" label="active" testId="active-time">
      {formatDuration(s.activeTimeMs)}
    </Fact>
  ),
  tokens: (s, _re, sorted) => (
    <Fact fact="tokens" label="tokens" testId="tokens" sorted={sorted}>
      {formatTokens(totalTokens(s.tokens))}
    </Fact>
  ),
  cost: (s) => (
    <Fact fact="cost" label="cost" testId="cost">
      <span title={formatCost(s.cost)}>{formatCost(s.cost, true)}</span>
    </Fact>
  ),
  entries: (s, _re, sorted) => (
    <Fact fact="entries" label="entries" testId="entries" sorted={sorted}>
      {formatCount(s.counts.entries)}
    </Fact>
  ),
};

const DEFAULT_FACTS: readonly SessionFact[] = rowFacts(DEFAULT_COLUMNS, null);

/** What every row starts with, in both densities: the star, the status and the title. */
function RowTitle({ s, mark, re }: { s: Session; mark?: AnnotationSummary; re: RegExp | null }) {
  return (
    <>
      <ListStar id={s.id} mark={mark} />
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
    </>
  );
}

export const SessionRow = memo(function SessionRow({
  s,
  re = null,
  sortedBy = DEFAULT_SORT,
  facts = DEFAULT_FACTS,
  mark,
  compact = false,
}: {
  s: Session;
  /** One line: the title, then the facts beside it (cut at the right edge when they do not fit). */
  compact?: boolean;
  /** The session's star and tags (the list page's `annotations`). */
  mark?: AnnotationSummary;
  re?: RegExp | null;
  /** The list's order: that fact stands out. */
  sortedBy?: SessionSortKey;
  /**
   * The facts to show, in order (see rowFacts; the sorted one included). One array per selection
   * (useRowFacts), so a row renders again only when the selection changes.
   */
  facts?: readonly SessionFact[];
}) {
  const details = facts.filter((f): f is DetailFact => f !== 'provenance');
  if (compact)
    return (
      <Link
        to="/sessions/$id"
        params={{ id: s.id }}
        data-testid="session-row"
        data-session-id={s.id}
        data-compact=""
        style={{ display: 'block', textDecoration: 'none', color: 'inherit' }}
      >
        <Paper withBorder px="xs" py={3} radius="sm" className="ct-row">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 40%' }}>
              <RowTitle s={s} mark={mark} re={re} />
            </Group>
            <Group
              gap="sm"
              wrap="nowrap"
              style={{ minWidth: 0, flex: '0 1 auto', overflow: 'hidden' }}
              data-testid="session-facts"
            >
              {facts.includes('provenance') && (
                // A badge squeezed by the facts beside it would shrink to an empty pill.
                <span style={{ flexShrink: 0, display: 'inline-flex' }}>
                  <ProvenanceChip provenance={s.provenance} />
                </span>
              )}
              {details.map((f) => (
                <Fragment key={f}>{DETAILS[f](s, re, f === SORTED_FACT[sortedBy])}</Fragment>
              ))}
            </Group>
          </Group>
        </Paper>
      </Link>
    );
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
            <RowTitle s={s} mark={mark} re={re} />
          </Group>
          {facts.includes('provenance') && (
            <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
              <ProvenanceChip provenance={s.provenance} />
            </Group>
          )}
        </Group>
        {details.length > 0 && (
          <Group gap="md" mt={4} style={{ rowGap: 2 }} data-testid="session-facts">
            {details.map((f) => (
              <Fragment key={f}>{DETAILS[f](s, re, f === SORTED_FACT[sortedBy])}</Fragment>
            ))}
          </Group>
        )}
      </Paper>
    </Link>
  );
});
