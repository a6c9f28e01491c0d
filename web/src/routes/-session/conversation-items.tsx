/**
 * The conversation reader's item renderers, one per item type, chosen from one table
 * (`itemRenderers`). Dialogue hangs on a spine; a run of tool calls is one line that opens to each
 * call; thinking is collapsible; images are placeholders with their size. Text only, never HTML.
 */
import { Badge, Box, Collapse, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { AnchorLink } from '../../components/AnchorLink.js';
import { BookmarkToggle } from '../../components/BookmarkToggle.js';
import { SecretMark, secretRules } from '../../components/SecretMark.js';
import { useState, type ReactNode } from 'react';
import { HighlightedText } from '../../components/HighlightedText.js';
import { Markdown } from '../../components/Markdown.js';
import { HiddenCharactersBadge } from '../../components/RevealedText.js';
import { holdsHidden } from '../../../../src/core/hidden-characters.js';
import {
  noticeLabel,
  subagentFileFor,
  summarizeCalls,
  type ReaderItem,
  type SubagentFileHead,
} from '../../lib/entry-groups.js';
import { formatClock, formatUtc, formatCountOf, formatTokens, shortModel } from '../../lib/format.js';
import { hasMatch } from '../../lib/highlight.js';
import { stripAnsi } from '../../lib/terminal-text.js';
import { ImageThumbs } from './ImageThumbs.js';
import { SubagentThread, ToolCallView, callHoldsHidden } from './ToolCallView.js';
import { targetProps } from './use-scroll-to-target.js';

export interface ItemContext {
  sessionId: string;
  file: string;
  re: RegExp | null;
  /** The entry to open at: its item starts expanded and outlined. */
  target?: number;
  open: boolean;
  toggle: () => void;
  subagentHeads: SubagentFileHead[];
  /** Entries before the first loaded one are still to load (a call may be among them). */
  earlierUnloaded?: boolean;
  /** A further streamed part of the API message the item before began: no header of its own. */
  continues?: boolean;
}

/** An entry's own actions: its bookmark toggle (and note) and its permalink, after its secret mark if any. */
export function EntryLink({
  sessionId,
  file,
  index,
  secrets,
}: {
  sessionId: string;
  file: string;
  index: number;
  secrets?: Record<string, number>;
}) {
  return (
    <Group gap={2} wrap="nowrap" display="inline-flex">
      <SecretMark rules={secretRules(secrets)} />
      <BookmarkToggle sessionId={sessionId} file={file} index={index} />
      <EntryPermalink sessionId={sessionId} file={file} index={index} />
    </Group>
  );
}

function EntryPermalink({ sessionId, file, index }: { sessionId: string; file: string; index: number }) {
  return (
    <AnchorLink
      to="/sessions/$id"
      params={{ id: sessionId }}
      from="/sessions/$id"
      search={(old) => ({ ...old, entry: index, file: file === 'transcript.jsonl' ? undefined : file })}
      size="xs"
      c="dimmed"
      title="Link to this entry"
      data-testid="entry-link"
    >
      #{index}
    </AnchorLink>
  );
}

function Spine({ color, children, dot = true }: { color: string; children: ReactNode; dot?: boolean }) {
  return (
    <div className="ct-spine">
      {dot && <span className="ct-spine-dot" style={{ background: `var(--mantine-color-${color}-6)` }} />}
      {children}
    </div>
  );
}

function Thinking({ text, re }: { text: string; re: RegExp | null }) {
  const [open, setOpen] = useState(hasMatch(text, re));
  return (
    <Box>
      <UnstyledButton onClick={() => setOpen((v) => !v)} aria-expanded={open} data-testid="thinking-toggle">
        <Text size="xs" c="violet.3">
          {open ? '▾' : '▸'} thinking ({text.length.toLocaleString('en')} chars)
        </Text>
      </UnstyledButton>
      <Collapse expanded={open}>
        {open && (
          <Text
            size="sm"
            c="dimmed"
            className="ct-text"
            fs="italic"
            pl="sm"
            style={{ borderLeft: '2px solid var(--mantine-color-violet-9)' }}
          >
            <HighlightedText text={text} re={re} />
          </Text>
        )}
      </Collapse>
    </Box>
  );
}

function MessageView({ item, ctx }: { item: Extract<ReaderItem, { type: 'message' }>; ctx: ItemContext }) {
  const e = item.entry;
  const you = e.role === 'user';
  // A You message reads as the You turn does (a slash command as `/init args`).
  const text = you ? item.prompt : e.text;
  return (
    <Spine color={you ? 'blue' : 'orange'} dot={!ctx.continues}>
      <Stack
        gap={4}
        py={ctx.continues ? 0 : 6}
        pb={6}
        data-testid={you ? 'msg-user' : 'msg-assistant'}
        data-continues={ctx.continues ? '' : undefined}
        pos="relative"
        data-entry={e.index}
        {...targetProps(e.index === ctx.target)}
      >
        {ctx.continues ? (
          <Box pos="absolute" top={0} right={0}>
            <EntryLink sessionId={ctx.sessionId} file={ctx.file} index={e.index} secrets={e.secrets} />
          </Box>
        ) : (
          <Group gap={8}>
            <Text size="sm" fw={700} c={you ? 'blue.3' : 'orange.3'}>
              {you ? 'You' : 'Claude'}
            </Text>
            {e.model && (
              <Text size="xs" c="dimmed">
                {shortModel(e.model)}
              </Text>
            )}
            <Text size="xs" c="dimmed" title={formatUtc(e.timestamp)}>
              {formatClock(e.timestamp)}
            </Text>
            {e.usage && (
              <Text size="xs" c="dimmed" title="input / output tokens">
                {formatTokens(e.usage.input + e.usage.cacheRead + e.usage.cacheWrite)} in ·{' '}
                {formatTokens(e.usage.output)} out
              </Text>
            )}
            <EntryLink sessionId={ctx.sessionId} file={ctx.file} index={e.index} secrets={e.secrets} />
          </Group>
        )}
        {e.thinking && <Thinking text={e.thinking} re={ctx.re} />}
        {text && (
          <Box fz="sm" data-testid="msg-text">
            <Markdown text={text} re={ctx.re} />
          </Box>
        )}
        {e.images && e.images.length > 0 && (
          <ImageThumbs images={e.images} sessionId={ctx.sessionId} file={ctx.file} index={e.index} />
        )}
        {e.truncated && (
          <Text size="xs" c="dimmed">
            (shortened here; the raw reader shows the full line)
          </Text>
        )}
      </Stack>
    </Spine>
  );
}

function ToolsView({ item, ctx }: { item: Extract<ReaderItem, { type: 'tools' }>; ctx: ItemContext }) {
  const errors =
    item.calls.filter((c) => c.result?.isError).length + item.orphans.filter((o) => o.isError).length;
  const n = item.calls.length;
  const targetCall =
    ctx.target === undefined
      ? undefined
      : item.calls.find(
          (c) =>
            c.index === ctx.target ||
            c.result?.index === ctx.target ||
            c.subagent?.some((s) => s.index === ctx.target),
        );
  // Opening at an entry in this run: only its call opens, so other matching calls above it do
  // not push it down (they stay folded, their summary line highlighted).
  const holdsTarget = ctx.target !== undefined && item.entries.includes(ctx.target);
  const hidden =
    item.calls.some((c) => callHoldsHidden(c)) || item.orphans.some((o) => holdsHidden(o.content));
  return (
    <Spine color="gray">
      <Box py={4} data-testid="tool-run" data-entries={item.entries.join(',')}>
        <UnstyledButton onClick={ctx.toggle} aria-expanded={ctx.open} w="100%">
          <Group gap={6} wrap="nowrap">
            <Text size="xs" c="dimmed" w={10}>
              {ctx.open ? '▾' : '▸'}
            </Text>
            <Text size="sm" c="gray.4" truncate>
              {n === 0 ? 'tool results' : `${formatCountOf(n, 'tool call')}: ${summarizeCalls(item.calls)}`}
            </Text>
            <SecretMark
              rules={secretRules(
                ...item.calls.flatMap((c) => [c.secrets, c.result?.secrets]),
                ...item.orphans.map((o) => o.secrets),
              )}
            />
            {errors > 0 && (
              <Badge size="xs" color="red" variant="light">
                {formatCountOf(errors, 'error')}
              </Badge>
            )}
            {hidden && <HiddenCharactersBadge />}
          </Group>
        </UnstyledButton>
        {ctx.open && (
          <Stack gap={2} mt={4} pl={4} style={{ borderLeft: '1px solid var(--mantine-color-dark-4)' }}>
            {item.calls.map((c) => (
              <ToolCallView
                key={c.id}
                call={c}
                re={ctx.re}
                sessionId={ctx.sessionId}
                file={ctx.file}
                subagentFile={subagentFileFor(c, ctx.subagentHeads)}
                initiallyOpen={c === targetCall}
                openOnMatch={!holdsTarget}
                target={c === targetCall ? ctx.target : undefined}
              />
            ))}
            {item.orphans.map((o) => (
              <Box
                key={`${o.toolUseId}-${o.index}`}
                pl={4}
                data-entry={o.index}
                {...targetProps(o.index === ctx.target)}
              >
                <Group gap={6} wrap="nowrap" justify="space-between">
                  <Text size="xs" c={o.isError ? 'red.4' : 'dimmed'}>
                    {ctx.earlierUnloaded
                      ? `result of a call in an earlier entry, not loaded yet (${o.toolUseId})`
                      : `result of a call not in this transcript (${o.toolUseId})`}
                  </Text>
                  <EntryLink sessionId={ctx.sessionId} file={ctx.file} index={o.index} />
                </Group>
                <pre className="ct-pre">
                  <HighlightedText text={o.content.slice(0, 20_000)} re={ctx.re} />
                </pre>
              </Box>
            ))}
          </Stack>
        )}
      </Box>
    </Spine>
  );
}

/**
 * A notice's text, with its error marked where the text already holds it (a system line's text is
 * `level: content` and then the error): the error shows once, in red in its place, rather than
 * again on a line of its own. Null when the text does not hold the error.
 */
function TextWithError({ text, error, re }: { text: string; error: string; re: RegExp | null }) {
  const at = error ? text.lastIndexOf(error) : -1;
  if (at < 0) return null;
  return (
    <>
      <HighlightedText text={text.slice(0, at)} re={re} />
      <Text span inherit c="red.3" data-testid="notice-error">
        <HighlightedText text={error} re={re} />
      </Text>
      <HighlightedText text={text.slice(at + error.length)} re={re} />
    </>
  );
}

function NoticeView({ item, ctx }: { item: Extract<ReaderItem, { type: 'notice' }>; ctx: ItemContext }) {
  const e = item.entry;
  const text = e.text ?? '';
  const long = text.length > 300 || text.split('\n').length > 4;
  const label = item.label ?? noticeLabel(e);
  // The error on a line of its own only when the text does not already say it.
  const inText = !!e.error && text.includes(e.error);
  return (
    <Box
      py={4}
      pl={22}
      data-testid={e.malformed ? 'notice-malformed' : 'notice'}
      data-notice={label}
      data-entry={e.index}
      {...targetProps(e.index === ctx.target)}
    >
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Badge
          size="xs"
          variant="light"
          color={e.malformed || e.error ? 'red' : 'gray'}
          tt="none"
          style={{ flexShrink: 0 }}
        >
          {label}
        </Badge>
        <Box style={{ minWidth: 0, flex: 1 }}>
          {e.error && !inText && (
            <Text size="xs" c="red.3" className="ct-text" data-testid="notice-error">
              {stripAnsi(e.error)}
            </Text>
          )}
          {text && (
            <UnstyledButton
              onClick={long ? ctx.toggle : undefined}
              style={{ cursor: long ? 'pointer' : 'default', width: '100%' }}
            >
              <Text size="xs" c="dimmed" className="ct-text" lineClamp={ctx.open || !long ? undefined : 3}>
                {inText ? (
                  <TextWithError text={text} error={e.error!} re={ctx.re} />
                ) : (
                  <HighlightedText text={text} re={ctx.re} />
                )}
              </Text>
            </UnstyledButton>
          )}
          {e.images && e.images.length > 0 && (
            <ImageThumbs images={e.images} sessionId={ctx.sessionId} file={ctx.file} index={e.index} />
          )}
        </Box>
        <EntryLink sessionId={ctx.sessionId} file={ctx.file} index={e.index} secrets={e.secrets} />
      </Group>
    </Box>
  );
}

function MetaView({ item, ctx }: { item: Extract<ReaderItem, { type: 'meta' }>; ctx: ItemContext }) {
  const kinds = new Map<string, number>();
  for (const e of item.entries) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
  const summary = [...kinds].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ');
  return (
    <Box pl={22} py={1} data-testid="meta" data-entry={item.entries[0]?.index}>
      <UnstyledButton onClick={ctx.toggle} aria-expanded={ctx.open}>
        <Text size="xs" c="dark.2">
          {ctx.open ? '▾' : '▸'} {formatCountOf(item.entries.length, 'bookkeeping line')}: {summary}
        </Text>
      </UnstyledButton>
      {ctx.open && (
        <Stack gap={0} pl="md">
          {item.entries.map((e) => (
            <Group
              key={e.index}
              gap={6}
              wrap="nowrap"
              data-entry={e.index}
              {...targetProps(e.index === ctx.target)}
            >
              <Text size="xs" c="dimmed" truncate style={{ minWidth: 0, flex: 1 }}>
                #{e.index} {e.kind} {formatClock(e.timestamp)}{' '}
                {e.text ? `— ${stripAnsi(e.text).slice(0, 200)}` : ''}
              </Text>
              <BookmarkToggle sessionId={ctx.sessionId} file={ctx.file} index={e.index} />
            </Group>
          ))}
        </Stack>
      )}
    </Box>
  );
}

function SubagentView({ item, ctx }: { item: Extract<ReaderItem, { type: 'subagent' }>; ctx: ItemContext }) {
  return (
    <Box pl={22} py={4} data-entry={item.entries[0]?.index}>
      <UnstyledButton onClick={ctx.toggle} aria-expanded={ctx.open}>
        <Text size="sm" c="grape.3">
          {ctx.open ? '▾' : '▸'} subagent work not tied to a call (
          {formatCountOf(item.entries.length, 'entry', 'entries')})
        </Text>
      </UnstyledButton>
      {ctx.open && <SubagentThread entries={item.entries} re={ctx.re} target={ctx.target} />}
    </Box>
  );
}

type Renderer = (props: { item: ReaderItem; ctx: ItemContext }) => ReactNode;

/** One renderer per item type. */
export const itemRenderers: Record<ReaderItem['type'], Renderer> = {
  message: ({ item, ctx }) => (
    <MessageView item={item as Extract<ReaderItem, { type: 'message' }>} ctx={ctx} />
  ),
  tools: ({ item, ctx }) => <ToolsView item={item as Extract<ReaderItem, { type: 'tools' }>} ctx={ctx} />,
  notice: ({ item, ctx }) => <NoticeView item={item as Extract<ReaderItem, { type: 'notice' }>} ctx={ctx} />,
  meta: ({ item, ctx }) => <MetaView item={item as Extract<ReaderItem, { type: 'meta' }>} ctx={ctx} />,
  subagent: ({ item, ctx }) => (
    <SubagentView item={item as Extract<ReaderItem, { type: 'subagent' }>} ctx={ctx} />
  ),
};
