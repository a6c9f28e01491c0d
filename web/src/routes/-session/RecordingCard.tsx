/**
 * How a session was recorded, and what that says: hook-recorded or transcript only, the
 * reconciliation of hook events against the transcript (tool calls the hooks missed, hook events
 * the transcript never shows, a transcript that stopped growing), and whether the transcript was
 * deleted from the projects directory while this instance kept it.
 */
import { Badge, List, Table, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatClock, formatCount, formatUtc } from '../../lib/format.js';
import type { SessionDetail } from '../../queries/api.js';

type Reconciliation = SessionDetail['reconciliation'];

const STATE: Record<Reconciliation['state'], { label: string; color: string; meaning: string }> = {
  consistent: {
    label: 'consistent',
    color: 'green',
    meaning: 'every tool call the transcript shows was reported by a hook, and the other way round',
  },
  differences: { label: 'differences', color: 'yellow', meaning: 'hooks and transcript disagree: see below' },
  not_hook_recorded: {
    label: 'no hooks',
    color: 'gray',
    meaning: 'no hook event was recorded for this session: nothing to compare',
  },
};

/** The first three examples of a finding (`Tool · time · id`) and how many more there are. */
function Examples({
  count,
  items,
}: {
  count: number;
  items: Array<{ toolUseId: string; toolName: string | null; timestamp: string; event?: string }>;
}) {
  const shown = items.slice(0, 3);
  return (
    <List size="xs" spacing={0} withPadding>
      {shown.map((i) => (
        <List.Item key={`${i.toolUseId}-${i.event ?? ''}`}>
          {i.event ? `${i.event} · ` : ''}
          {i.toolName ?? 'tool'} · {formatClock(i.timestamp)} · <code>{i.toolUseId}</code>
        </List.Item>
      ))}
      {count > shown.length && <List.Item>and {formatCount(count - shown.length)} more</List.Item>}
    </List>
  );
}

export function RecordingCard({
  s,
  Row,
}: {
  s: SessionDetail;
  Row: (p: { label: string; children: ReactNode; testId?: string }) => ReactNode;
}) {
  const r = s.reconciliation;
  const state = STATE[r.state];
  return (
    <Table withRowBorders={false} verticalSpacing={1} horizontalSpacing={4}>
      <Table.Tbody>
        <Row label="recorded by">
          {s.hookRecorded ? `hooks and transcript (${s.source})` : `transcript only (${s.source})`}
        </Row>
        <Row label="hooks vs transcript" testId="detail-reconciliation">
          <Tooltip label={state.meaning} openDelay={300}>
            <Badge size="xs" variant="light" color={state.color} tt="none" data-state={r.state}>
              {state.label}
            </Badge>
          </Tooltip>
          {r.window && (
            <Text span size="xs" c="dimmed" ml={6}>
              {formatCount(r.hookToolCalls)} tool calls reported, {formatCount(r.transcriptToolCalls)} in the
              transcript
            </Text>
          )}
        </Row>
        {r.toolCallsWithoutEvents.count > 0 && (
          <Row label="missed by hooks">
            {formatCount(r.toolCallsWithoutEvents.count)} tool call(s) in the transcript without a hook event
            <Examples {...r.toolCallsWithoutEvents} />
          </Row>
        )}
        {r.eventsWithoutTranscript.count > 0 && (
          <Row label="not in transcript">
            {formatCount(r.eventsWithoutTranscript.count)} hook event(s) whose tool call the transcript never
            shows
            <Examples {...r.eventsWithoutTranscript} />
          </Row>
        )}
        {r.transcriptStalled && (
          <Row label="transcript stalled" testId="detail-stalled">
            no line since {formatUtc(r.transcriptStalled.lastLineAt)}, while{' '}
            {formatCount(r.transcriptStalled.eventsAfter)} prompt and tool events followed (last{' '}
            {formatUtc(r.transcriptStalled.lastEventAt)})
          </Row>
        )}
        <Row label="source file" testId="detail-source-file">
          {s.sourceDeleted ? (
            <>
              <Badge size="xs" variant="light" color="orange" tt="none" mr={6}>
                kept after deletion
              </Badge>
              deleted from the projects directory (noticed {formatUtc(s.sourceDeleted.detectedAt)});
              everything recorded is kept here
              <List size="xs" spacing={0} withPadding>
                {s.sourceDeleted.files.map((f) => (
                  <List.Item key={f.path}>
                    <code>{f.path}</code>
                  </List.Item>
                ))}
              </List>
            </>
          ) : (
            'present'
          )}
        </Row>
      </Table.Tbody>
    </Table>
  );
}
