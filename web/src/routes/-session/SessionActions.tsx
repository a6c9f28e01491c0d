/**
 * What a user can do with a session outside this page: resume it in Claude Code (the command,
 * with a copy button), restore its deleted transcript (the CLI command), and share it
 * (ShareMenu). Kept apart from SessionDetails so the page's header stays one line to include.
 */
import { ActionIcon, Code, CopyButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { resumeCommand, shellQuote } from '../../../../src/core/resume-command.js';
import type { SessionDetail } from '../../queries/api.js';
import { ShareMenu } from './ShareMenu.js';

function CommandLine({ label, command, testId }: { label: ReactNode; command: string; testId: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="center" data-testid={testId}>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Text>
      <Code style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid={`${testId}-command`}>
        {command}
      </Code>
      <CopyButton value={command}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'copied' : 'copy the command'}>
            <ActionIcon
              size="sm"
              variant="subtle"
              onClick={copy}
              aria-label={`copy: ${command}`}
              data-testid={`${testId}-copy`}
            >
              {copied ? '✓' : '⧉'}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

export function SessionActions({ s }: { s: SessionDetail }) {
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="session-actions">
      <Group justify="space-between" align="flex-start" gap="xs">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <CommandLine label="resume" command={resumeCommand(s)} testId="resume" />
          {s.sourceDeleted && (
            <CommandLine
              label={<span data-testid="restore-hint">source file deleted — restore with:</span>}
              command={`transcripts restore ${shellQuote(s.id)}`}
              testId="restore"
            />
          )}
        </Stack>
        <ShareMenu id={s.id} />
      </Group>
    </Paper>
  );
}
