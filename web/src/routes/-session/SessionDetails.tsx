/**
 * Everything known about a session, above its transcript: title, status and provenance; where,
 * when and with what it ran; token usage and its cost; counts and tool calls by name; subagents
 * and files; the blueprint's data links for it.
 */
import {
  Badge,
  Button,
  Collapse,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { AnchorLink } from '../../components/AnchorLink.js';
import { HighlightedText } from '../../components/HighlightedText.js';
import { ApiAnchor } from '../../components/ApiLink.js';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Fragment, type ReactNode } from 'react';
import { ProvenanceChip } from '../../components/ProvenanceChip.js';
import { StatusMarker } from '../../components/StatusMarker.js';
import {
  COST_NOTE,
  formatBytes,
  formatCost,
  formatCount,
  formatCountOf,
  formatDuration,
  formatTokens,
  formatUtc,
  modelShares,
  totalTokens,
} from '../../lib/format.js';
import type { SessionDetail } from '../../queries/api.js';
import { RecordingCard } from './RecordingCard.js';
import { SessionSummaryBar } from './SessionSummaryBar.js';
import { useRememberedToggle } from '../../lib/remembered-toggle.js';

/** Whether the details panel is open, in this browser's localStorage (`open` / `closed`). */
export const DETAILS_OPEN_KEY = 'transcripts.sessionDetails.v1';
import { sessionHref, type Blueprint } from '../../queries/blueprint.js';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Table.Tr>
      <Table.Td w={110} c="dimmed" fz="xs" style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Td>
      <Table.Td fz="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {children}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The session's cost (`formatCost`), then, for a session that used more than one model, each
 * model's share: `$14.10 · claude-sonnet-4-20250514 $4.00 · claude-opus-4-1-20250805 $10.10`.
 */
function CostValue({ cost }: { cost: SessionDetail['cost'] }) {
  const models = modelShares(cost.byModel);
  return (
    <Tooltip label={COST_NOTE} multiline w={320}>
      <span data-testid="detail-cost-value">
        <span data-testid="detail-cost-total">{formatCost(cost)}</span>
        {models.length > 1 && (
          <span data-testid="detail-cost-by-model">
            {models.map((share, i) => (
              <Fragment key={i}>
                {' · '}
                {/* A model and its figure wrap together, never a figure onto the next model's line. */}
                <span style={{ whiteSpace: 'nowrap' }}>{share}</span>
              </Fragment>
            ))}
          </span>
        )}
      </span>
    </Tooltip>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="xs" radius="sm">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
        {title}
      </Text>
      {children}
    </Paper>
  );
}

export function SessionDetails({ s, links }: { s: SessionDetail; links: Blueprint['sessionLinks'] }) {
  const tools = Object.entries(s.toolCallsByName).sort((a, b) => b[1] - a[1]);
  const subagentFiles = s.files.filter((f) => f.name !== 'transcript.jsonl');
  // The cards would push the conversation a screen down: they fold behind a button (folded by
  // default, as this browser last left them), the summary bar saying the essentials meanwhile.
  const [opened, toggle] = useRememberedToggle(DETAILS_OPEN_KEY, false);
  return (
    <Stack gap="sm" data-testid="session-details">
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={3} fz="lg" style={{ overflowWrap: 'anywhere' }} data-testid="session-heading">
            {s.title !== null ? <HighlightedText text={s.title} re={null} /> : '(untitled session)'}
          </Title>
          <Group gap="xs">
            <StatusMarker status={s.status} />
            <ProvenanceChip provenance={s.provenance} />
            {s.sourceDeleted && (
              <Tooltip label="its transcript was deleted from the projects directory; everything recorded is kept here">
                <Badge size="xs" variant="light" color="orange" tt="none" data-testid="kept-after-deletion">
                  kept after deletion
                </Badge>
              </Tooltip>
            )}
            <CopyButton value={s.id}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'copied' : 'copy the id'}>
                  <Code
                    onClick={copy}
                    style={{ cursor: 'pointer', overflowWrap: 'anywhere' }}
                    data-testid="session-id"
                  >
                    {s.id}
                  </Code>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Stack>
      </Group>
      <Group gap="sm">
        <SessionSummaryBar s={s} />
        <Button
          size="compact-xs"
          variant="light"
          color="gray"
          onClick={toggle}
          aria-expanded={opened}
          data-testid="details-toggle"
          w="fit-content"
          leftSection={opened ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        >
          {opened ? 'Hide details' : 'Details'}
        </Button>
      </Group>
      <Collapse expanded={opened}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <Card title="Session">
            <Table withRowBorders={false} verticalSpacing={1} horizontalSpacing={4}>
              <Table.Tbody>
                <Row label="project">{s.project ?? '—'}</Row>
                <Row label="directory">
                  {s.cwd ? (
                    <AnchorLink to="/" search={{ cwd: s.cwd }} size="sm">
                      {s.cwd}
                    </AnchorLink>
                  ) : (
                    '—'
                  )}
                </Row>
                <Row label="git branch">{s.gitBranch ?? '—'}</Row>
                <Row label="models">{s.models.length ? s.models.join(', ') : '—'}</Row>
                <Row label="host">{s.hostname ?? '—'}</Row>
                <Row label="source">{s.source}</Row>
                <Row label="version">{s.version ?? '—'}</Row>
              </Table.Tbody>
            </Table>
          </Card>
          <Card title="Time and usage">
            <Table withRowBorders={false} verticalSpacing={1} horizontalSpacing={4}>
              <Table.Tbody>
                <Row label="started" testId="detail-started">
                  {formatUtc(s.startedAt)}
                </Row>
                <Row label="last activity" testId="detail-last-activity">
                  {formatUtc(s.lastActivity)}
                </Row>
                <Row label="ended">
                  {s.endedAt ? `${formatUtc(s.endedAt)}${s.endReason ? ` (${s.endReason})` : ''}` : '—'}
                </Row>
                <Row label="runtime" testId="detail-runtime">
                  {formatDuration(s.runtimeMs)}
                </Row>
                <Row label="active time" testId="detail-active">
                  {formatDuration(s.activeTimeMs)}
                </Row>
                <Row label="tokens" testId="detail-tokens">
                  {formatTokens(totalTokens(s.tokens))} total · {formatTokens(s.tokens.input)} in ·{' '}
                  {formatTokens(s.tokens.output)} out · {formatTokens(s.tokens.cacheWrite)} cache write ·{' '}
                  {formatTokens(s.tokens.cacheRead)} cache read
                </Row>
                <Row label="cost" testId="detail-cost">
                  <CostValue cost={s.cost} />
                </Row>
                <Row label="transcript">{formatBytes(s.transcriptBytes)}</Row>
              </Table.Tbody>
            </Table>
          </Card>
          <Card title="Activity">
            <Table withRowBorders={false} verticalSpacing={1} horizontalSpacing={4}>
              <Table.Tbody>
                <Row label="entries" testId="detail-entries">
                  {formatCount(s.counts.entries)} · {formatCountOf(s.counts.prompts, 'prompt')} ·{' '}
                  {formatCountOf(s.counts.assistantMessages, 'answer')}
                </Row>
                <Row label="tool calls" testId="detail-tool-calls">
                  {formatCount(s.counts.toolCalls)}
                  {s.counts.toolErrors ? ` · ${formatCountOf(s.counts.toolErrors, 'error')}` : ''}
                </Row>
                <Row label="by tool">
                  {tools.length ? (
                    <Group gap={4}>
                      {tools.map(([name, n]) => (
                        <Badge key={name} size="xs" variant="light" color="gray" tt="none">
                          {name} {n}
                        </Badge>
                      ))}
                    </Group>
                  ) : (
                    '—'
                  )}
                </Row>
                <Row label="subagents" testId="detail-subagents">
                  {formatCount(s.subagents)}
                  {subagentFiles.length ? ` · ${formatCountOf(subagentFiles.length, 'file')}` : ''}
                </Row>
                <Row label="other">
                  {formatCount(s.counts.sidechainEntries)} sidechain ·{' '}
                  {formatCountOf(s.counts.compactions, 'compaction')} ·{' '}
                  {formatCountOf(s.counts.images, 'image')} · {formatCount(s.counts.malformed)} malformed ·{' '}
                  {formatCountOf(s.counts.events, 'event')}
                </Row>
              </Table.Tbody>
            </Table>
          </Card>
          <Card title="Recording">
            <RecordingCard s={s} Row={Row} />
          </Card>
        </SimpleGrid>
      </Collapse>
      {links.length > 0 && (
        <Group gap="xs" data-testid="session-links" role="navigation" aria-label="This session's data">
          <Text size="xs" c="dimmed">
            Data:
          </Text>
          {links.map((l) => (
            <ApiAnchor key={l.href} href={sessionHref(l.href, s.id)} size="xs">
              {l.label}
            </ApiAnchor>
          ))}
        </Group>
      )}
    </Stack>
  );
}
