/** The list's URL state for stars, tags, notes and secrets → the session list's API parameters. */
export function annotationParams(search: {
  starred?: 'true';
  tag?: string;
  hasNote?: 'true';
  hasSecrets?: 'true';
}): {
  starred?: 'true';
  tag?: string[];
  hasNote?: 'true';
  hasSecrets?: 'true';
} {
  const tags = (search.tag ?? '').split(',').filter(Boolean);
  return {
    ...(search.starred ? { starred: 'true' } : {}),
    ...(tags.length ? { tag: tags } : {}),
    ...(search.hasNote ? { hasNote: 'true' } : {}),
    ...(search.hasSecrets ? { hasSecrets: 'true' } : {}),
  };
}
