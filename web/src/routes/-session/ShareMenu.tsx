/**
 * The session page's Share menu: the same two files `transcripts share` writes (self-contained
 * HTML, or Markdown), made by GET /api/sessions/{id}/share. Before the download it previews what
 * will be redacted — the count by rule, never the secrets — for the options chosen; keeping the
 * secrets takes a switch of its own.
 */
import { Alert, Button, Group, Popover, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { QueryOf } from '../../../../src/client/typed-client.js';
import { api } from '../../queries/api.js';

interface Choice {
  role: 'both' | 'you' | 'claude';
  tools: boolean;
  thinking: boolean;
  redact: boolean;
}

/** The share route's query for `format` and the options chosen. */
export function shareQuery(format: 'html' | 'markdown' | 'summary', c: Choice): QueryOf<typeof SHARE> {
  return {
    format,
    role: c.role === 'both' ? undefined : c.role === 'you' ? 'user' : 'assistant',
    tools: c.tools ? undefined : 'false',
    thinking: c.thinking ? undefined : 'false',
    redact: c.redact ? undefined : 'false',
  };
}

const SHARE = '/api/sessions/{id}/share';

/** Fetched with the token (a plain link could not carry it), then saved under the route's name. */
async function download(id: string, format: 'html' | 'markdown', c: Choice): Promise<void> {
  // The file, not JSON: a raw request, its errors read as any call's.
  const res = await api.send('GET', `/api/sessions/${encodeURIComponent(id)}/share`, {
    query: shareQuery(format, c),
    headers: { accept: '*/*' },
  });
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `${id}.${format === 'html' ? 'html' : 'md'}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function RedactionPreview({ id, choice }: { id: string; choice: Choice }) {
  const summary = useQuery({
    queryKey: ['share-summary', id, choice],
    queryFn: ({ signal }) =>
      api.GET(SHARE, { params: { path: { id }, query: shareQuery('summary', choice) }, signal }),
    enabled: choice.redact,
  });
  if (!choice.redact)
    return (
      <Alert color="red" variant="light" p="xs" data-testid="share-no-redact">
        <Text size="xs">Secrets are kept: the file holds whatever keys and tokens the session does.</Text>
      </Alert>
    );
  if (summary.isPending)
    return (
      <Text size="xs" c="dimmed">
        looking for secrets…
      </Text>
    );
  if (summary.isError)
    return (
      <Text size="xs" c="red">
        cannot preview: {summary.error.message}
      </Text>
    );
  const rules = Object.entries(summary.data.redactions).sort(
    (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
  );
  return (
    <Text size="xs" data-testid="share-preview">
      {summary.data.total === 0
        ? 'No likely secrets found.'
        : `${summary.data.total} likely secret${summary.data.total === 1 ? '' : 's'} will be redacted: ` +
          rules.map(([r, n]) => `${r} ${n}`).join(', ')}
    </Text>
  );
}

export function ShareMenu({ id }: { id: string }) {
  const [opened, setOpened] = useState(false);
  const [choice, setChoice] = useState<Choice>({ role: 'both', tools: true, thinking: true, redact: true });
  const [failure, setFailure] = useState<string | null>(null);
  const set = (patch: Partial<Choice>) => setChoice((c) => ({ ...c, ...patch }));
  const save = (format: 'html' | 'markdown') => {
    setFailure(null);
    download(id, format, choice).catch((err: unknown) =>
      setFailure(err instanceof Error ? err.message : String(err)),
    );
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={320} withArrow shadow="md">
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => setOpened((o) => !o)}
          data-testid="share-button"
        >
          Share
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="share-menu">
        {opened && (
          <Stack gap="xs">
            <SegmentedControl
              size="xs"
              value={choice.role}
              onChange={(v) => set({ role: v as Choice['role'] })}
              data={[
                { value: 'both', label: 'Both' },
                { value: 'you', label: 'You' },
                { value: 'claude', label: 'Claude' },
              ]}
            />
            <Switch
              size="xs"
              label="tool calls"
              checked={choice.tools}
              onChange={(e) => set({ tools: e.currentTarget.checked })}
            />
            <Switch
              size="xs"
              label="thinking"
              checked={choice.thinking}
              onChange={(e) => set({ thinking: e.currentTarget.checked })}
            />
            <Switch
              size="xs"
              label="redact secrets"
              checked={choice.redact}
              onChange={(e) => set({ redact: e.currentTarget.checked })}
              data-testid="share-redact"
            />
            <RedactionPreview id={id} choice={choice} />
            <Group gap="xs">
              <Button size="compact-sm" onClick={() => save('html')} data-testid="share-html">
                Download HTML
              </Button>
              <Button
                size="compact-sm"
                variant="default"
                onClick={() => save('markdown')}
                data-testid="share-markdown"
              >
                Markdown
              </Button>
            </Group>
            {failure && (
              <Text size="xs" c="red">
                {failure}
              </Text>
            )}
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
