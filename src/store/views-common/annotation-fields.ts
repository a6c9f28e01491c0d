/**
 * The fields of an annotation document the `session_annotations` view keeps, read defensively (a
 * document is validated where it enters, but a view never trusts a body to have every field).
 */
export interface AnnotationFields {
  starred: boolean;
  tags: string[];
  note: string;
  bookmarks: Array<{ file: string; index: number; note: string | null; at: string }>;
}

export function annotationFields(doc: Record<string, unknown>): AnnotationFields {
  const tags = Array.isArray(doc.tags) ? doc.tags.filter((t): t is string => typeof t === 'string') : [];
  const marks = Array.isArray(doc.bookmarks) ? doc.bookmarks : [];
  return {
    starred: doc.starred === true,
    tags: [...new Set(tags)],
    note: typeof doc.note === 'string' ? doc.note : '',
    bookmarks: marks
      .filter(
        (b): b is Record<string, unknown> =>
          b !== null && typeof b === 'object' && typeof b.file === 'string' && Number.isInteger(b.index),
      )
      .map((b) => ({
        file: b.file as string,
        index: b.index as number,
        note: typeof b.note === 'string' ? b.note : null,
        at: typeof b.at === 'string' ? b.at : '',
      })),
  };
}
