/**
 * The session list's error: a filter the API refuses (a 400, such as more words than `text`
 * takes) is said in the API's words with the chips still there to remove it — asked once, not
 * retried. Anything else is the usual error panel.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useNavigate, useSearch, type ErrorComponentProps } from '@tanstack/react-router';
import { ErrorPanel } from '../../components/ErrorPanel.js';
import { FilterChips } from '../../components/FilterChips.js';
import { filterChips } from '../../lib/search-params.js';
import { ApiError } from '../../queries/api.js';

export function ListError(props: ErrorComponentProps) {
  const search = useSearch({ from: '/' });
  const navigate = useNavigate({ from: '/' });
  const { error } = props;
  if (!(error instanceof ApiError && error.status === 400)) return <ErrorPanel {...props} />;
  return (
    <Stack gap="sm" p="sm" maw={1200} mx="auto" data-testid="list-refused">
      <Alert color="yellow" variant="light" title="The API refused these filters">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="list-refused-message">
          {error.message}
        </Text>
      </Alert>
      <FilterChips
        chips={filterChips(search)}
        onRemove={(key) => navigate({ search: (old) => ({ ...old, [key]: undefined }) })}
      />
      <Button size="xs" variant="light" w="fit-content" onClick={() => navigate({ search: {} })}>
        Clear all filters
      </Button>
    </Stack>
  );
}
