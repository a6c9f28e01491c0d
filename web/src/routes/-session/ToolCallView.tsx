/**
 * One tool call inside a folded run: its name and a one-line summary of the input; opened, the
 * input (as a diff for edit tools, JSON otherwise), the result (red when it failed) and, for a
 * Task/Agent call, the subagent's work grouped beneath it. All of it rendered as text.
 */
import { Anchor, Badge, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { AnchorLink } from '../../components/AnchorLink.js';
import { useState } from 'react';
import { HighlightedText } from '../../components/HighlightedText.js';
import type { SubagentFileHead, ToolCall } from '../../lib/entry-groups.js';
import { summarizeCalls } from '../../lib/entry-groups.js';
import { diffStat, editDiff, type DiffLine } from '../../lib/line-diff.js';
import { hasMatch } from '../../lib/highlight.js';

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

function Diff({ lines }: { lines: DiffLine[] }) {
  return (
    <Box style={{ border: '1px solid var(--mantine-color-dark-4)', borderRadius: 4, overflow: 'hidden' }}>
      {lines.map((l, i) => (
        <div key={i} className="ct-diff-line" data-op={l.op}>
          {l.op} {l.text}
        </div>
      ))}
    </Box>
  );
}

export interface ToolCallViewProps {
  call: ToolCall;
  re: RegExp | null;
  sessionId: string;
  subagentFile?: SubagentFileHead;
  /** The call holds the target entry: start open. */
  initiallyOpen?: boolean;
}

export function ToolCallView({ call, re, sessionId, subagentFile, initiallyOpen }: ToolCallViewProps) {
  const input = stringifyInput(call.input);
  const matched = hasMatch(input, re) || hasMatch(call.result?.content, re);
  const [open, setOpen] = useState(Boolean(initiallyOpen || matched));
  const diff = editDiff(call.name, call.input);
  const stat = diff ? diffStat(diff.hunks) : null;
  const failed = call.result?.isError;
  return (
    <Box data-testid="tool-call" data-tool={call.name} data-entry={call.index} pl={4}>
      <UnstyledButton onClick={() => setOpen((v) => !v)} w="100%" aria-expanded={open}>
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
          {failed && (
            <Badge size="xs" color="red" variant="light" style={{ flexShrink: 0 }}>
              error
            </Badge>
          )}
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
      {open && (
        <Stack gap={6} pl={16} pt={4} pb={6}>
          {diff ? (
            <>
              {diff.path && (
                <Text size="xs" c="dimmed">
                  {diff.path}
                </Text>
              )}
              {diff.hunks.map((h, i) => (
                <Diff key={i} lines={h} />
              ))}
            </>
          ) : (
            <div>
              <Text size="xs" c="dimmed">
                input
              </Text>
              <Clipped text={input} re={re} />
            </div>
          )}
          {call.result && (
            <div data-testid="tool-result" data-entry={call.result.index}>
              <Text size="xs" c={failed ? 'red.4' : 'dimmed'}>
                {failed ? 'result (error)' : 'result'}
              </Text>
              <Box c={failed ? 'red.2' : undefined}>
                <Clipped text={call.result.content} re={re} />
              </Box>
            </div>
          )}
          {call.subagent && <SubagentThread entries={call.subagent} re={re} />}
          {subagentFile && (
            <AnchorLink
              to="/sessions/$id"
              params={{ id: sessionId }}
              search={{ file: subagentFile.file, view: 'both' }}
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

/** Sidechain entries a Task call started, shown compactly under it. */
export function SubagentThread({
  entries,
  re,
}: {
  entries: ToolCall['subagent'] & object;
  re: RegExp | null;
}) {
  return (
    <Stack
      gap={4}
      pl={8}
      style={{ borderLeft: '2px solid var(--mantine-color-grape-8)' }}
      data-testid="subagent-thread"
    >
      <Text size="xs" c="grape.3">
        subagent work ({entries.length} entries)
      </Text>
      {entries.map((e) => {
        const calls = e.toolUses?.length ? summarizeCalls(e.toolUses) : '';
        const result = e.toolResults?.map((r) => r.content).join('\n') ?? '';
        const body = e.text || e.thinking || calls || result || e.kind;
        return (
          <Box key={e.index} data-entry={e.index}>
            <Text size="xs" c="dimmed">
              #{e.index} {e.role === 'tool_result' ? 'result' : e.role}
              {calls && e.text ? ` · ${calls}` : ''}
            </Text>
            <Text size="sm" className="ct-text" lineClamp={6}>
              <HighlightedText text={body.slice(0, 4000)} re={re} />
            </Text>
          </Box>
        );
      })}
    </Stack>
  );
}
