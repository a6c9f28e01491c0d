/**
 * Turns on the Turns page, by session: each run of consecutive turns of one session under its
 * heading (title and project, linking to the session), then each turn — who spoke and when, a link
 * that opens the transcript at the turn's entry, and the text, clamped to a few lines with a
 * button to show it all (a long pasted prompt would otherwise fill the page).
 */
import { Box, Button, Divider, Group, Paper, Text } from '@mantine/core';
import { memo, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { AnchorLink } from '../../components/AnchorLink.js';
import { HighlightedText } from '../../components/HighlightedText.js';
import { formatUtc, shortModel } from '../../lib/format.js';
import type { TurnGroup } from '../../lib/turn-groups.js';
import type { SessionTurn } from '../../queries/api.js';
import { MAIN_FILE } from '../-session/ConversationReader.js';

/** Lines a turn's text shows until it is opened. */
export const CLAMP_LINES = 4;

/** Whether the element's content is cut off (taller than it is shown), measured again on resize. */
function useCutOff(ref: RefObject<HTMLElement | null>, text: string): boolean {
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setCut(el.scrollHeight > el.clientHeight + 1);
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, text]);
  return cut;
}

/** One session's run of turns, under its heading. */
export const SessionTurns = memo(function SessionTurns({ group }: { group: TurnGroup<SessionTurn> }) {
  const { sessionId, turns } = group;
  const session = turns[0]!.session;
  return (
    <Paper withBorder p="xs" className="ct-row" data-testid="turn-group" data-session-id={sessionId}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <AnchorLink
          to="/sessions/$id"
          params={{ id: sessionId }}
          size="sm"
          fw={600}
          c="gray.4"
          truncate
          data-testid="turn-session"
        >
          {session?.title != null ? (
            <HighlightedText text={session.title} re={null} />
          ) : (
            <Text span c="dimmed" inherit>
              (untitled) {sessionId}
            </Text>
          )}
        </AnchorLink>
        {session?.project && (
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }} data-testid="turn-project">
            {session.project}
          </Text>
        )}
      </Group>
      {turns.map((t, i) => (
        <Box key={`${t.file}:${t.index}`}>
          {i > 0 && <Divider my={6} color="dark.5" />}
          <TurnRow turn={t} />
        </Box>
      ))}
    </Paper>
  );
});

function TurnRow({ turn }: { turn: SessionTurn }) {
  const you = turn.role === 'user';
  const [open, setOpen] = useState(false);
  const textRef = useRef<HTMLDivElement>(null);
  const cut = useCutOff(textRef, turn.text);
  const inFile = turn.file === MAIN_FILE ? undefined : turn.file;
  return (
    <Box
      mt={4}
      className="ct-cursor-item"
      data-testid="turn-row"
      data-session-id={turn.sessionId}
      data-entry={turn.index}
      data-file={turn.file}
      data-role={turn.role}
    >
      <Group gap={8} style={{ rowGap: 0 }}>
        <Text size="sm" fw={700} c={you ? 'blue.3' : 'orange.3'} data-testid="turn-role">
          {you ? 'You' : 'Claude'}
        </Text>
        {turn.model && (
          <Text size="xs" c="dimmed">
            {shortModel(turn.model)}
          </Text>
        )}
        <Text size="xs" c="dimmed" data-testid="turn-time">
          {formatUtc(turn.timestamp)}
        </Text>
        <AnchorLink
          to="/sessions/$id"
          params={{ id: turn.sessionId }}
          search={{ entry: turn.index, file: inFile, view: 'both' }}
          size="xs"
          c="dimmed"
          data-testid="turn-open"
        >
          #{turn.index} in {inFile ?? 'the transcript'}
        </AnchorLink>
      </Group>
      <Text
        ref={textRef}
        size="sm"
        mt={4}
        className="ct-text"
        lineClamp={open ? undefined : CLAMP_LINES}
        data-testid="turn-text"
        data-clamped={open ? undefined : ''}
      >
        <HighlightedText text={turn.text} re={null} />
      </Text>
      {(cut || open) && (
        <Button
          size="compact-xs"
          variant="subtle"
          color="gray"
          mt={2}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          data-testid="turn-expand"
        >
          {open ? 'Show less' : 'Show all'}
        </Button>
      )}
    </Box>
  );
}
