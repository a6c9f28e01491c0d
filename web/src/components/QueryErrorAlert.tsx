/**
 * A page's failed query in place of its results: what went wrong, and the token field when the
 * instance wants one (401) or a Retry otherwise. Route-level errors use ErrorPanel instead.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { describeError, isUnauthorized } from '../queries/api.js';
import { TokenForm } from './TokenForm.js';

export function QueryErrorAlert({
  error,
  retry,
  testId,
}: {
  error: unknown;
  retry: () => void;
  testId: string;
}) {
  const { title, message } = describeError(error);
  return (
    <Alert color="red" title={title} data-testid={testId}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {isUnauthorized(error) ? (
          <TokenForm onSaved={retry} />
        ) : (
          <Button size="compact-sm" variant="light" color="red" onClick={retry}>
            Retry
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
