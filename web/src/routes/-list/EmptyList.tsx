/** The two empty states: nothing recorded yet (with how to import) vs. nothing matches the filters. */
import { Button, Code, List, Paper, Stack, Text, Title } from '@mantine/core';

/** `filtered`: filters are active too — say they are not why the list is empty. */
export function NothingRecorded({ filtered = false }: { filtered?: boolean }) {
  return (
    <Paper withBorder p="lg" data-testid="empty-nothing-recorded">
      <Stack gap="xs">
        <Title order={4}>Nothing recorded yet</Title>
        <Text size="sm">
          No sessions are stored on this instance
          {filtered ? ', so the filters above have nothing to match' : ''}. To fill it:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>
            import the transcripts Claude Code keeps in <Code>~/.claude/projects</Code>:{' '}
            <Code>transcripts backfill</Code>
          </List.Item>
          <List.Item>
            record new sessions as they run: <Code>transcripts hooks install</Code>
          </List.Item>
          <List.Item>
            or restore a bundle: <Code>transcripts import &lt;dir&gt;</Code>
          </List.Item>
        </List>
        <Text size="xs" c="dimmed">
          The first <Code>transcripts serve</Code> imports <Code>~/.claude/projects</Code> by itself when it
          exists.
        </Text>
      </Stack>
    </Paper>
  );
}

export function NothingMatches({ onClear }: { onClear: () => void }) {
  return (
    <Paper withBorder p="lg" data-testid="empty-no-match">
      <Stack gap="xs" align="flex-start">
        <Title order={4}>Nothing matches these filters</Title>
        <Text size="sm">
          Sessions are recorded, but none fits every active filter. Remove a chip above, or:
        </Text>
        <Button size="xs" variant="light" onClick={onClear}>
          Clear all filters
        </Button>
      </Stack>
    </Paper>
  );
}
