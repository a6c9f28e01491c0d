/** The page for a path under /app that no route answers. */
import { Alert, Anchor, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { usePageTitle } from '../lib/page-title.js';

export function NotFound() {
  usePageTitle('Page not found');
  return (
    <Stack p="md" maw={760} data-testid="not-found">
      <Alert color="yellow" title="Page not found" variant="light">
        Nothing lives at this address.{' '}
        <Anchor component={Link} to="/">
          Go to all sessions
        </Anchor>
        .
      </Alert>
    </Stack>
  );
}
