/**
 * One tool call inside a folded run: its name and a one-line summary of the input; opened, the
 * input (as a diff for edit tools, JSON otherwise), the result (red when it failed) and, for a
 * Task/Agent call, the subagent's work grouped beneath it. All of it rendered as text.
 */
import { Anchor, Badge, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { AnchorLink } from '../../components/AnchorLink.js';
import { useEffect, useState } from 'react';
import { HighlightedText } from '../../components/HighlightedText.js';
import { HiddenCharactersBadge } from '../../components/RevealedText.js';
import type { SubagentFileHead, ToolCall } from '../../lib/entry-groups.js';
import { formatCountOf, formatDuration } from '../../lib/format.js';
import { diffStat, editDiff, type DiffLine } from '../../lib/line-diff.js';
import { hasMatch } from '../../lib/highlight.js';
import { holdsHidden } from '../../../../src/core/hidden-characters.js';
import { targetProps } from './use-scroll-to-target.js';
import { FailedBadge, ToolInput, ToolOutput } from './tool-kinds.js';
import { BookmarkToggle } from '../../components/BookmarkToggle.js';

const MAX_INLINE = 20_000;

/** A short description of what a call did: the file, command or pattern it names. */
export function callSubject(name: string, input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const i = input as Record<string, unknown>;
  const pick = (...keys: string[]) => {
    for (const k of keys) if (typeof i[k] === 'string' && i[k]) return i[k] as string;
    return '';
  };
  const s =
    name === 'Bash'
      ? pick('command', 'description')
      : name === 'Task' || name === 'Agent'
        ? pick('description', 'subagent_type', 'prompt')
        : pick(
            'file_path',
            'path',
            'notebook_path',
            'pattern',
            'url',
            'query',
            'command',
            'description',
            'prompt',
          );
  return s.split('\n')[0]!.slice(0, 200);
}

/** Whether a call's input (`input`, as shown) or result holds hidden characters (RevealedText). */
export function callHoldsHidden(call: ToolCall, input = stringifyInput(call.input)): boolean {
  return holdsHidden(input) || holdsHidden(call.result?.content ?? '');
}

/** From the tool use to its result; undefined when either time is unknown. */
export function callDuration(call: ToolCall): number | undefined {
  const a = call.at ? Date.parse(call.at) : NaN;
  const b = call.result?.at ? Date.parse(call.result.at) : NaN;
  return Number.isFinite(a) && Number.isFinite(b) && b >= a ? b - a : undefined;
}

export function stringifyInput(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input, null, 2) ?? '';
  } catch {
    return String(input);
  }
}

function Clipped({ text, re }: { text: string; re: RegExp | null }) {
  const [all, setAll] = useState(false);
  const long = text.length > MAX_INLINE;
  return (
    <>
      <pre className="ct-pre">
        <HighlightedText text={long && !all ? `${text.slice(0, MAX_INLINE)}\n…` : text} re={re} />
      </pre>
      {long && (
        <Anchor component="button" size="xs" onClick={() => setAll((v) => !v)}>
          {all ? 'show less' : `show all ${text.length.toLocaleString('en')} characters`}
        </Anchor>
      )}
    </>
  );
}

function Diff({ lines, re }: { lines: DiffLine[]; re: RegExp | null }) {
  return (
    <Box
      style={{ border: '1px solid var(--mantine-color-dark-4)', borderRadius: 4, overflow: 'hidden' }}
      data-testid="diff"
    >
      {lines.map((l, i) => (
        <div key={i} className="ct-diff-line" data-op={l.op}>
          {l.op} <HighlightedText text={l.text} re={re} />
        </div>
      ))}
    </Box>
  );
}

export interface ToolCallViewProps {
  call: ToolCall;
  re: RegExp | null;
  sessionId: string;
  /** The transcript file the call is in (its entries are bookmarked there). */
  file: string;
  subagentFile?: SubagentFileHead;
  /** The call holds the target entry: start open. */
  initiallyOpen?: boolean;
  /** Start open when the input or result matches the highlighted terms (default true). */
  openOnMatch?: boolean;
  /** The entry to open at, when it is this call, its result or a line of its subagent's work. */
  target?: number;
}

export function ToolCallView({
  call,
  re,
  sessionId,
  file,
  subagentFile,
  initiallyOpen,
  openOnMatch = true,
  target,
}: ToolCallViewProps) {
  const input = stringifyInput(call.input);
  const matched = openOnMatch && (hasMatch(input, re) || hasMatch(call.result?.content, re));
  const [open, setOpen] = useState(Boolean(initiallyOpen || matched));
  // Opened again when it becomes the target (a permalink followed on the same page).
  useEffect(() => {
    if (target !== undefined) setOpen(true);
  }, [target]);
  const edit = editDiff(call.name, call.input);
  const stat = edit ? diffStat(edit.hunks) : null;
  // A Write is the file it wrote, highlighted (its stat still says how many lines).
  const diff = call.name === 'Write' ? undefined : edit;
  const failed = call.result?.isError;
  const hidden = callHoldsHidden(call, input);
  const took = callDuration(call);
  return (
    <Box
      data-testid="tool-call"
      data-tool={call.name}
      data-entry={call.index}
      data-failed={failed ? '' : undefined}
      className="ct-tool-call"
      pl={4}
      {...targetProps(target !== undefined && target === call.index)}
    >
      <Group gap={4} wrap="nowrap">
        <UnstyledButton
          onClick={() => setOpen((v) => !v)}
          aria-expanded={open}
          data-testid="tool-call-toggle"
          style={{ flex: 1, minWidth: 0 }}
        >
          <Group gap={6} wrap="nowrap">
            <Text size="xs" c="dimmed" w={10}>
              {open ? '▾' : '▸'}
            </Text>
            <Text size="sm" fw={600} style={{ flexShrink: 0 }}>
              {call.name}
            </Text>
            <Text size="xs" c="dimmed" truncate style={{ minWidth: 0 }}>
              <HighlightedText text={callSubject(call.name, call.input)} re={re} />
            </Text>
            {stat && (
              <Text size="xs" style={{ flexShrink: 0 }}>
                <Text span c="green.5">
                  +{stat.added}
                </Text>{' '}
                <Text span c="red.5">
                  −{stat.removed}
                </Text>
              </Text>
            )}
            {took !== undefined && (
              <Text
                size="xs"
                c="dimmed"
                style={{ flexShrink: 0 }}
                title="from the call to its result"
                data-testid="tool-duration"
              >
                {formatDuration(took)}
              </Text>
            )}
            {failed && <FailedBadge />}
            {hidden && <HiddenCharactersBadge />}
            {!call.result && (
              <Badge size="xs" color="gray" variant="outline" style={{ flexShrink: 0 }}>
                no result
              </Badge>
            )}
            {call.subagent && (
              <Badge size="xs" color="grape" variant="light" style={{ flexShrink: 0 }}>
                subagent · {call.subagent.length}
              </Badge>
            )}
          </Group>
        </UnstyledButton>
        {/* Beside the line, not in its button: bookmarking does not also open the call. */}
        <BookmarkToggle sessionId={sessionId} file={file} index={call.index} />
      </Group>
      {open && (
        <Stack gap={6} pl={16} pt={4} pb={6}>
          {diff ? (
            <>
              {diff.path && (
                <Text size="xs" c="dimmed" data-testid="diff-path">
                  <HighlightedText text={diff.path} re={re} />
                </Text>
              )}
              {diff.hunks.map((h, i) => (
                <Diff key={i} lines={h} re={re} />
              ))}
            </>
          ) : (
            <div data-testid="tool-input-view">
              <ToolInput name={call.name} input={call.input} re={re} open={target !== undefined} />
            </div>
          )}
          {call.result && (
            <div
              data-testid="tool-result"
              data-entry={call.result.index}
              {...targetProps(target !== undefined && target === call.result.index)}
            >
              <Group gap={6} wrap="nowrap">
                <Text size="xs" c={failed ? 'red.4' : 'dimmed'}>
                  {failed ? 'result (error)' : 'result'}
                </Text>
                <BookmarkToggle sessionId={sessionId} file={file} index={call.result.index} />
              </Group>
              <Box c={failed ? 'red.2' : undefined}>
                <ToolOutput
                  name={call.name}
                  input={call.input}
                  content={call.result.content}
                  isError={!!failed}
                  re={re}
                  open={target !== undefined && target === call.result.index}
                />
              </Box>
            </div>
          )}
          {call.subagent && <SubagentThread entries={call.subagent} re={re} target={target} />}
          {subagentFile && (
            <AnchorLink
              to="/sessions/$id"
              params={{ id: sessionId }}
              from="/sessions/$id"
              // The terms highlighted and the reader go along; an entry of the main file does not.
              search={(old) => ({ ...old, file: subagentFile.file, view: 'both', entry: undefined })}
              size="sm"
              data-testid="subagent-link"
            >
              Open the subagent’s transcript ({subagentFile.file})
            </AnchorLink>
          )}
        </Stack>
      )}
    </Box>
  );
}

/** One call made inside a subagent's work: its name and what it acted on. */
function SubagentCall({
  use,
  re,
  full,
}: {
  use: { name: string; input?: unknown };
  re: RegExp | null;
  full: boolean;
}) {
  const diff = full ? editDiff(use.name, use.input) : null;
  return (
    <Box>
      <Text size="xs" className="ct-text">
        <Text span fw={600} size="xs">
          {use.name}
        </Text>{' '}
        <Text span c="dimmed" size="xs">
          <HighlightedText text={callSubject(use.name, use.input)} re={re} />
        </Text>
      </Text>
      {full &&
        (diff && use.name !== 'Write' ? (
          diff.hunks.map((h, i) => <Diff key={i} lines={h} re={re} />)
        ) : (
          <ToolInput name={use.name} input={use.input} re={re} open />
        ))}
    </Box>
  );
}

/**
 * Sidechain entries a Task call started, shown compactly under it: each line's text, the calls it
 * made (name and subject) and its results, clamped. The target entry is shown whole — its calls'
 * full input and its full result — and outlined.
 */
export function SubagentThread({
  entries,
  re,
  target,
}: {
  entries: ToolCall['subagent'] & object;
  re: RegExp | null;
  target?: number;
}) {
  return (
    <Stack
      gap={4}
      pl={8}
      style={{ borderLeft: '2px solid var(--mantine-color-grape-8)' }}
      data-testid="subagent-thread"
    >
      <Text size="xs" c="grape.3">
        subagent work ({formatCountOf(entries.length, 'entry', 'entries')})
      </Text>
      {entries.map((e) => {
        const isTarget = e.index === target;
        const uses = e.toolUses ?? [];
        const result = e.toolResults?.map((r) => r.content).join('\n') ?? '';
        const failed = e.toolResults?.some((r) => r.isError) ?? false;
        const text = e.text || e.thinking || (uses.length ? '' : result) || (uses.length ? '' : e.kind);
        return (
          <Box key={e.index} data-entry={e.index} {...targetProps(isTarget)}>
            <Group gap={6}>
              <Text size="xs" c={failed ? 'red.4' : 'dimmed'}>
                #{e.index} {e.role === 'tool_result' ? 'result' : e.role}
              </Text>
              {failed && <FailedBadge />}
            </Group>
            {text &&
              (isTarget && !e.text && !e.thinking ? (
                <Clipped text={text} re={re} />
              ) : (
                <Text size="sm" className="ct-text" lineClamp={isTarget ? undefined : 6}>
                  <HighlightedText text={isTarget ? text : text.slice(0, 4000)} re={re} />
                </Text>
              ))}
            {uses.map((u) => (
              <SubagentCall key={u.id} use={u} re={re} full={isTarget} />
            ))}
            {uses.length > 0 && result && (
              <Text size="sm" className="ct-text" lineClamp={isTarget ? undefined : 6}>
                <HighlightedText text={isTarget ? result : result.slice(0, 4000)} re={re} />
              </Text>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}
