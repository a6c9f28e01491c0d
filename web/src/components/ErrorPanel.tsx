/**
 * The error a route shows instead of its page: what went wrong in words (an unreachable API, a
 * missing session, any other API error) and a retry — never a blank page. A 401 (the instance
 * runs with CT_API_TOKEN) offers a field for the token instead of only saying so.
 */
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { describeError, isUnauthorized, isUnreachable } from '../queries/api.js';
import { TokenForm } from './TokenForm.js';

export function ErrorPanel({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryReset = useQueryErrorResetBoundary();
  const { title, message, status } = describeError(error);
  const unreachable = isUnreachable(error);
  const retry = () => {
    queryReset.reset();
    reset();
    void router.invalidate();
  };
  return (
    <Stack p="md" maw={760} data-testid="error-panel">
      <Alert color={status === 404 || status === 401 ? 'yellow' : 'red'} title={title} variant="light">
        <Stack gap="xs">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message}
          </Text>
          {isUnauthorized(error) && <TokenForm onSaved={retry} />}
          {unreachable && (
            <Text size="sm" c="dimmed">
              Start the API with <Code>transcripts serve</Code> (or <Code>npm start</Code>), then retry.
            </Text>
          )}
        </Stack>
      </Alert>
      <Group>
        <Button variant="light" onClick={retry}>
          Retry
        </Button>
        <Button variant="subtle" component={Link} to="/">
          All sessions
        </Button>
      </Group>
    </Stack>
  );
}
