/**
 * Says which search terms were not searched (the API's `ignored`: no letter or digit, so the index
 * has no words for them), so a search for 🎉 or `->` is not read as a history without any.
 * `all` says nothing was searched at all; `compact` is the omnibox dropdown's one-line form.
 */
import { Alert, Text } from '@mantine/core';

const WHY = 'search finds words of letters and digits; emoji and punctuation are not indexed';

export function IgnoredTerms({
  terms,
  all = false,
  compact = false,
}: {
  terms: string[];
  all?: boolean;
  compact?: boolean;
}) {
  if (terms.length === 0) return null;
  const named = terms.map((t) => `“${t}”`).join(', ');
  const text = all ? `Nothing to search: ${named} — ${WHY}.` : `Not searched: ${named} — ${WHY}.`;
  if (compact)
    return (
      <Text size="xs" c="yellow.4" px="xs" py={2} data-testid="search-ignored">
        {text}
      </Text>
    );
  return (
    <Alert color="yellow" variant="light" data-testid="search-ignored">
      {text}
    </Alert>
  );
}
