/**
 * A tool call's input and result shown by the tool's kind, as the best viewers do: Bash as a
 * shell line and terminal output, Write as the file highlighted by its extension, Read as the
 * path and line range, Grep and Glob as the pattern and the matches, TodoWrite as a checklist,
 * Task/Agent as the prompt and the subagent's answer in Markdown, WebFetch/WebSearch as the URL
 * or query; any other tool's input as a collapsible JSON tree (never raw JSON text). Edit and
 * MultiEdit stay diffs (ToolCallView). All of it text: marks and hidden characters as elsewhere.
 */
import { Badge, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed, IconProgress } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { CodeBlock, lineCount } from '../../components/CodeBlock.js';
import { HighlightedText } from '../../components/HighlightedText.js';
import { Markdown, isWebLink } from '../../components/Markdown.js';
import { grammarForPath } from '../../lib/code-highlight.js';
import { formatCountOf } from '../../lib/format.js';
import { hasMatch } from '../../lib/highlight.js';

type Input = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function asInput(input: unknown): Input | undefined {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Input) : undefined;
}

/** A labelled fact of a call's input: `pattern  foo.*bar`. */
function Fact({
  label,
  value,
  re,
  mono = true,
}: {
  label: string;
  value: string;
  re: RegExp | null;
  mono?: boolean;
}) {
  return (
    <Group gap={8} wrap="nowrap" align="flex-start" data-testid="tool-fact" data-fact={label}>
      <Text size="xs" c="dimmed" w={64} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="xs" ff={mono ? 'monospace' : undefined} className="ct-text" style={{ minWidth: 0 }}>
        <HighlightedText text={value} re={re} />
      </Text>
    </Group>
  );
}

/** `lines 10–59` of a Read: offset is the first line, limit how many. */
export function readRange(input: Input): string | undefined {
  const offset = num(input.offset);
  const limit = num(input.limit);
  if (offset === undefined && limit === undefined) return undefined;
  const from = offset ?? 1;
  return limit === undefined ? `from line ${from}` : `lines ${from}–${from + limit - 1}`;
}

interface Todo {
  content: string;
  status: string;
}

function todosOf(input: Input): Todo[] | undefined {
  if (!Array.isArray(input.todos)) return undefined;
  const out: Todo[] = [];
  for (const t of input.todos) {
    const o = asInput(t);
    const content = str(o?.content) ?? str(o?.activeForm);
    if (content !== undefined) out.push({ content, status: str(o?.status) ?? 'pending' });
  }
  return out;
}

function TodoList({ todos, re }: { todos: Todo[]; re: RegExp | null }) {
  return (
    <Stack gap={2} data-testid="todo-list">
      {todos.map((t, i) => {
        const done = t.status === 'completed';
        const doing = t.status === 'in_progress';
        const Icon = done ? IconCircleCheck : doing ? IconProgress : IconCircleDashed;
        return (
          <Group key={i} gap={6} wrap="nowrap" align="flex-start" data-testid="todo" data-status={t.status}>
            <Icon
              size={15}
              style={{ flexShrink: 0, marginTop: 2 }}
              color={
                done
                  ? 'var(--mantine-color-green-5)'
                  : doing
                    ? 'var(--mantine-color-yellow-5)'
                    : 'var(--mantine-color-gray-5)'
              }
              aria-label={t.status}
            />
            <Text
              size="sm"
              td={done ? 'line-through' : undefined}
              c={done ? 'dimmed' : undefined}
              fw={doing ? 600 : undefined}
              className="ct-text"
            >
              <HighlightedText text={t.content} re={re} />
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

/** One value of a JSON tree: objects and arrays fold (open when they hold a search match). */
function JsonNode({
  name,
  value,
  re,
  depth,
}: {
  name?: string;
  value: unknown;
  re: RegExp | null;
  depth: number;
}) {
  const container = value !== null && typeof value === 'object';
  const entries = container
    ? Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value as Input)
    : [];
  const [open, setOpen] = useState(
    () =>
      depth < 1 ||
      (container && entries.length <= 8 && depth < 3) ||
      (container && hasMatch(safeJson(value), re)),
  );
  const label =
    name === undefined ? null : (
      <Text span size="xs" c="blue.3" ff="monospace">
        <HighlightedText text={name} re={re} />
        {': '}
      </Text>
    );
  if (!container) {
    const s = typeof value === 'string' ? value : String(JSON.stringify(value) ?? value);
    const multiline = typeof value === 'string' && (s.includes('\n') || s.length > 160);
    return (
      <Box pl={depth ? 12 : 0} className="ct-json-leaf">
        {label}
        {multiline ? (
          <Box
            component="pre"
            className="ct-pre"
            m={0}
            pl={8}
            style={{ borderLeft: '1px solid var(--mantine-color-dark-4)' }}
          >
            <HighlightedText text={s} re={re} />
          </Box>
        ) : (
          <Text
            span
            size="xs"
            ff="monospace"
            c={typeof value === 'string' ? 'green.3' : 'orange.3'}
            className="ct-text"
          >
            <HighlightedText text={typeof value === 'string' ? `"${s}"` : s} re={re} />
          </Text>
        )}
      </Box>
    );
  }
  const isArray = Array.isArray(value);
  return (
    <Box pl={depth ? 12 : 0}>
      <UnstyledButton onClick={() => setOpen((v) => !v)} aria-expanded={open} data-testid="json-toggle">
        <Text span size="xs" c="dimmed" ff="monospace">
          {open ? '▾ ' : '▸ '}
        </Text>
        {label}
        <Text span size="xs" c="dimmed" ff="monospace">
          {isArray ? `[${entries.length}]` : `{${entries.length}}`}
        </Text>
      </UnstyledButton>
      {open && entries.map(([k, v]) => <JsonNode key={k} name={k} value={v} re={re} depth={depth + 1} />)}
    </Box>
  );
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

export function JsonTree({ value, re }: { value: unknown; re: RegExp | null }) {
  return (
    <Box data-testid="json-tree" className="ct-json">
      <JsonNode value={value} re={re} depth={0} />
    </Box>
  );
}

/** What the call asked for, by kind. Undefined input (absent on the wire) shows nothing. */
export function ToolInput({
  name,
  input,
  re,
  open,
}: {
  name: string;
  input: unknown;
  re: RegExp | null;
  open?: boolean;
}): ReactNode {
  const i = asInput(input);
  if (input === undefined) return null;
  if (typeof input === 'string') return <CodeBlock code={input} re={re} open={open} testId="tool-input" />;
  if (!i) return <JsonTree value={input} re={re} />;
  const path = str(i.file_path) ?? str(i.path) ?? str(i.notebook_path);
  switch (name) {
    case 'Bash': {
      const command = str(i.command);
      if (command === undefined) break;
      return (
        <CodeBlock
          code={command}
          lang="bash"
          re={re}
          open={open}
          testId="shell-command"
          caption={
            <>
              <Text span inherit c="green.4">
                $
              </Text>{' '}
              {str(i.description) ? <HighlightedText text={str(i.description)!} re={re} /> : 'shell'}
              {i.run_in_background === true ? ' · in the background' : ''}
            </>
          }
        />
      );
    }
    case 'Write': {
      const content = str(i.content);
      if (content === undefined) break;
      return (
        <CodeBlock
          code={content}
          lang={grammarForPath(path)}
          re={re}
          open={open}
          testId="written-file"
          caption={
            path ? (
              <HighlightedText text={`${path} · ${formatCountOf(lineCount(content), 'line')}`} re={re} />
            ) : undefined
          }
        />
      );
    }
    case 'Read': {
      if (!path) break;
      const range = readRange(i);
      return (
        <Stack gap={2} data-testid="read-input">
          <Fact label="file" value={path} re={re} />
          {range && <Fact label="range" value={range} re={re} />}
        </Stack>
      );
    }
    case 'Grep':
    case 'Glob': {
      const pattern = str(i.pattern);
      if (pattern === undefined) break;
      const facts: Array<[string, string | undefined]> = [
        ['pattern', pattern],
        ['in', path],
        ['files', str(i.glob)],
        ['type', str(i.type)],
        ['output', str(i.output_mode)],
      ];
      return (
        <Stack gap={2} data-testid="pattern-input">
          {facts.map(([k, v]) => (v ? <Fact key={k} label={k} value={v} re={re} /> : null))}
          {i['-i'] === true && <Fact label="case" value="ignored" re={re} />}
        </Stack>
      );
    }
    case 'TodoWrite': {
      const todos = todosOf(i);
      if (!todos) break;
      return <TodoList todos={todos} re={re} />;
    }
    case 'Task':
    case 'Agent': {
      const prompt = str(i.prompt);
      return (
        <Stack gap={2} data-testid="task-input">
          {str(i.subagent_type) && <Fact label="agent" value={str(i.subagent_type)!} re={re} />}
          {str(i.description) && <Fact label="task" value={str(i.description)!} re={re} mono={false} />}
          {prompt && (
            <Box pl={8} style={{ borderLeft: '2px solid var(--mantine-color-grape-8)' }}>
              <Text size="sm" component="div">
                <Markdown text={prompt} re={re} />
              </Text>
            </Box>
          )}
        </Stack>
      );
    }
    case 'WebFetch':
    case 'WebSearch': {
      const url = str(i.url);
      const query = str(i.query);
      if (!url && !query) break;
      return (
        <Stack gap={2} data-testid="web-input">
          {url &&
            (isWebLink(url) ? (
              <Group gap={8} wrap="nowrap">
                <Text size="xs" c="dimmed" w={64} style={{ flexShrink: 0 }}>
                  URL
                </Text>
                <Text
                  size="xs"
                  ff="monospace"
                  component="a"
                  href={url}
                  target="_blank"
                  rel="noopener noreferrer"
                  c="blue.4"
                  className="ct-text"
                >
                  <HighlightedText text={url} re={re} />
                </Text>
              </Group>
            ) : (
              <Fact label="URL" value={url} re={re} />
            ))}
          {query && <Fact label="query" value={query} re={re} mono={false} />}
          {str(i.prompt) && <Fact label="asked" value={str(i.prompt)!} re={re} mono={false} />}
        </Stack>
      );
    }
  }
  return <JsonTree value={input} re={re} />;
}

/** Lines of output that are not empty: the matches of a Grep or Glob. */
function matchCount(content: string): number {
  return content.split('\n').filter((l) => l.trim() !== '').length;
}

/** What the call gave back, by kind. */
export function ToolOutput({
  name,
  input,
  content,
  isError,
  re,
  open,
}: {
  name: string;
  input: unknown;
  content: string;
  isError: boolean;
  re: RegExp | null;
  open?: boolean;
}): ReactNode {
  const i = asInput(input);
  if (!isError) {
    if (name === 'Task' || name === 'Agent')
      return (
        <Text size="sm" component="div" data-testid="task-result">
          <Markdown text={content} re={re} />
        </Text>
      );
    if (
      (name === 'Grep' || name === 'Glob') &&
      content.trim() !== '' &&
      !/^No (files|matches) found/i.test(content)
    )
      return (
        <CodeBlock
          code={content}
          re={re}
          open={open}
          testId="tool-output"
          caption={formatCountOf(matchCount(content), name === 'Glob' ? 'file' : 'line')}
        />
      );
    if (name === 'Read')
      return (
        <CodeBlock
          code={content}
          lang={grammarForPath(str(i?.file_path))}
          re={re}
          open={open}
          testId="tool-output"
        />
      );
  }
  return <CodeBlock code={content} re={re} open={open} terminal={name === 'Bash'} testId="tool-output" />;
}

/** The failed state's badge, the same on a call and in a subagent's thread. */
export function FailedBadge() {
  return (
    <Badge size="xs" color="red" variant="filled" style={{ flexShrink: 0 }} data-testid="tool-failed">
      failed
    </Badge>
  );
}
