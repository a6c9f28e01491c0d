/**
 * Shown where the API answered 401 (the instance runs with `CT_API_TOKEN`): a field for the
 * token, kept in this browser (lib/api-token.ts) and sent as `Authorization: Bearer …` with every
 * API call from then on. When the stored token is the one refused, it says so and offers to
 * forget it.
 */
import { Button, Code, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { forgetToken, readToken, saveToken, subscribeToken } from '../lib/api-token.js';

/** The stored token (re-renders when it changes, here or in another tab). */
export function useStoredToken(): string | null {
  return useSyncExternalStore(subscribeToken, readToken, () => null);
}

export function TokenForm({ onSaved }: { onSaved: () => void }) {
  const stored = useStoredToken();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const retryAll = () => {
    // Everything that failed without the token (the header's blueprint too) is asked again.
    void queryClient.invalidateQueries();
    onSaved();
  };
  return (
    <Stack gap="xs" data-testid="token-form">
      {stored ? (
        <Text size="sm" data-testid="token-refused">
          The token stored in this browser was refused: the instance&apos;s <Code>CT_API_TOKEN</Code> is
          another one (changed since?). Enter the current token, or forget the stored one.
        </Text>
      ) : (
        <Text size="sm">
          This instance runs with <Code>CT_API_TOKEN</Code>: every API call needs its token. Enter it to use
          the UI; it is kept in this browser (for this address only) and sent with each call.
        </Text>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!saveToken(value)) {
            setProblem('Paste the token itself (no spaces inside).');
            return;
          }
          setProblem(null);
          setValue('');
          retryAll();
        }}
      >
        <Group gap="xs" align="flex-start" wrap="wrap">
          <PasswordInput
            size="xs"
            w={320}
            maw="100%"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            placeholder="API token"
            aria-label="API token"
            autoComplete="current-password"
            error={problem}
            data-testid="token-input"
          />
          <Button size="xs" type="submit" data-testid="token-submit" disabled={value.trim() === ''}>
            Use this token
          </Button>
          {stored && (
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              onClick={() => {
                forgetToken();
                retryAll();
              }}
              data-testid="token-forget"
            >
              Forget the stored token
            </Button>
          )}
        </Group>
      </form>
    </Stack>
  );
}
