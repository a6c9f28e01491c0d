/**
 * Notes that hold every word searched (`GET /api/search/notes`), shown above the transcript hits:
 * full-text search covers what people wrote on sessions too.
 */
import { Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../queries/api.js';

export function NoteHits({ q }: { q: string }) {
  // The note search takes words: quotes and prefix stars of the transcript syntax are left out.
  const words = q.replace(/["*]/g, ' ').trim();
  const notes = useQuery({
    queryKey: ['search-notes', words],
    queryFn: () => unwrap(api.GET('/api/search/notes', { params: { query: { q: words, limit: 20 } } })),
    enabled: words !== '',
    retry: false,
  });
  if (!notes.data || notes.data.total === 0) return null;
  return (
    <Stack gap={4} data-testid="note-hits">
      <Text size="sm" c="dimmed">
        {notes.data.total === 1 ? '1 note' : `${notes.data.total} notes`}
      </Text>
      {notes.data.hits.map((h) => (
        <Paper key={h.sessionId} withBorder p="xs" radius="sm" data-testid="note-hit">
          <Link to="/sessions/$id" params={{ id: h.sessionId }}>
            <Text span size="sm" c="blue">
              {h.sessionId}
            </Text>
          </Link>
          <Text size="sm" lineClamp={3} style={{ whiteSpace: 'pre-wrap' }}>
            {h.note}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}
