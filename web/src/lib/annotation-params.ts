/** The list's URL state for stars, tags and notes → the session list's API parameters. */
export function annotationParams(search: { starred?: 'true'; tag?: string; hasNote?: 'true' }): {
  starred?: 'true';
  tag?: string[];
  hasNote?: 'true';
} {
  const tags = (search.tag ?? '').split(',').filter(Boolean);
  return {
    ...(search.starred ? { starred: 'true' } : {}),
    ...(tags.length ? { tag: tags } : {}),
    ...(search.hasNote ? { hasNote: 'true' } : {}),
  };
}
