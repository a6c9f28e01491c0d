/**
 * User data on sessions (DESIGN §13, "user data is not derived data"): one annotation document per
 * session (star, tags, note, bookmarks on entries) and one tombstone per forgotten session. Only a
 * person writes them; ingest, migrations and reindexing never do. Pure: the schemas, the limits,
 * the ids and the edits, so the API, the CLI, bundles and the store check them the same way.
 */
import { z } from 'zod';
import { objectKeyProblem } from './object-key.js';
import {
  annotationId,
  tombstoneId,
  MAX_TAGS,
  MAX_NOTE_BYTES,
  MAX_BOOKMARKS,
  MAX_BOOKMARK_NOTE_CHARS,
  TAG_RULE,
  tagProblem,
  noteProblem,
} from './annotation-rules.js';

const isoTimestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 timestamp');

export const bookmarkSchema = z.object({
  /** Object name of the transcript file (`transcript.jsonl`, `subagents/…`). */
  file: z.string().min(1),
  index: z.number().int().nonnegative(),
  note: z.string().max(MAX_BOOKMARK_NOTE_CHARS).optional(),
  at: isoTimestamp,
});
export type Bookmark = z.infer<typeof bookmarkSchema>;

export const annotationDocSchema = z.object({
  _id: z.string().min(1),
  _rev: z.string().optional(),
  type: z.literal('annotation'),
  sessionId: z.string().min(1),
  /** When a person last changed it. */
  timestamp: isoTimestamp,
  starred: z.boolean(),
  tags: z.array(z.string().refine((t) => tagProblem(t) === null, { error: TAG_RULE })).max(MAX_TAGS),
  note: z.string().refine((n) => noteProblem(n) === null, { error: `at most ${MAX_NOTE_BYTES} bytes` }),
  bookmarks: z.array(bookmarkSchema).max(MAX_BOOKMARKS),
});
export type AnnotationDoc = z.infer<typeof annotationDocSchema>;

export const tombstoneDocSchema = z.object({
  _id: z.string().min(1),
  _rev: z.string().optional(),
  type: z.literal('tombstone'),
  sessionId: z.string().min(1),
  /** When the session was forgotten. Nothing else of the session is kept, not even its title. */
  timestamp: isoTimestamp,
});
export type TombstoneDoc = z.infer<typeof tombstoneDocSchema>;

/** The annotation of a session that has none yet. */
export function emptyAnnotation(sessionId: string, at: string): AnnotationDoc {
  return {
    _id: annotationId(sessionId),
    type: 'annotation',
    sessionId,
    timestamp: at,
    starred: false,
    tags: [],
    note: '',
    bookmarks: [],
  };
}

/** True when it marks nothing: the document is then removed rather than kept empty. */
export function isEmptyAnnotation(
  a: Pick<AnnotationDoc, 'starred' | 'tags' | 'note' | 'bookmarks'>,
): boolean {
  return !a.starred && a.tags.length === 0 && a.note === '' && a.bookmarks.length === 0;
}

export class AnnotationInputError extends Error {
  override name = 'AnnotationInputError';
  constructor(
    message: string,
    /** 413 for a note past its limit, 400 otherwise. */
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/** One change a person makes. */
export type AnnotationEdit =
  | { kind: 'star'; starred: boolean }
  | { kind: 'tags'; add?: string[]; remove?: string[] }
  | { kind: 'note'; note: string }
  | { kind: 'bookmark'; file: string; index: number; note?: string }
  | { kind: 'unbookmark'; file: string; index: number };

/** Applies `edit` to `current`, checking its input; throws AnnotationInputError naming the rule. */
export function applyEdit(current: AnnotationDoc, edit: AnnotationEdit, at: string): AnnotationDoc {
  const next: AnnotationDoc = { ...current, timestamp: at };
  switch (edit.kind) {
    case 'star':
      next.starred = edit.starred;
      break;
    case 'tags': {
      for (const t of [...(edit.add ?? []), ...(edit.remove ?? [])]) {
        const p = tagProblem(t);
        if (p) throw new AnnotationInputError(p);
      }
      const remove = new Set(edit.remove ?? []);
      const tags = new Set(current.tags.filter((t) => !remove.has(t)));
      for (const t of edit.add ?? []) tags.add(t);
      if (tags.size > MAX_TAGS)
        throw new AnnotationInputError(
          `a session holds at most ${MAX_TAGS} tags; this would make ${tags.size}`,
        );
      next.tags = [...tags].sort();
      break;
    }
    case 'note': {
      const p = noteProblem(edit.note);
      if (p) throw new AnnotationInputError(p, true);
      // A note of only whitespace is no note.
      next.note = edit.note.trim() === '' ? '' : edit.note;
      break;
    }
    case 'bookmark': {
      if (objectKeyProblem(`x/${edit.file}`) !== null)
        throw new AnnotationInputError(
          'file: must be an object name of the session such as transcript.jsonl or subagents/<name>.jsonl',
        );
      if (edit.note !== undefined && edit.note.length > MAX_BOOKMARK_NOTE_CHARS)
        throw new AnnotationInputError(
          `a bookmark's note is ${edit.note.length} characters; at most ${MAX_BOOKMARK_NOTE_CHARS} are kept`,
          true,
        );
      const others = current.bookmarks.filter((b) => !(b.file === edit.file && b.index === edit.index));
      if (others.length >= MAX_BOOKMARKS)
        throw new AnnotationInputError(`a session holds at most ${MAX_BOOKMARKS} bookmarks`);
      const mark: Bookmark = { file: edit.file, index: edit.index, at };
      if (edit.note !== undefined && edit.note.trim() !== '') mark.note = edit.note;
      next.bookmarks = [...others, mark].sort((a, b) =>
        a.file === b.file ? a.index - b.index : a.file < b.file ? -1 : 1,
      );
      break;
    }
    case 'unbookmark':
      next.bookmarks = current.bookmarks.filter((b) => !(b.file === edit.file && b.index === edit.index));
      break;
  }
  return next;
}

/** The document types a person writes; everything else is derived. */
export const USER_DOC_TYPES = ['annotation', 'tombstone'] as const;

export function isUserDocType(type: unknown): type is (typeof USER_DOC_TYPES)[number] {
  return type === 'annotation' || type === 'tombstone';
}

/**
 * Problems with an annotation or tombstone document (schema, and `_id` matching its session), as
 * `field: reason`, or null. Used by the ingest route and by import's check of bundle lines.
 */
export function userDocProblem(doc: Record<string, unknown>): string | null {
  const schema = doc.type === 'annotation' ? annotationDocSchema : tombstoneDocSchema;
  const parsed = schema.safeParse(doc);
  if (!parsed.success)
    return parsed.error.issues
      .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
      .join('; ');
  const d = parsed.data;
  const want = d.type === 'annotation' ? annotationId(d.sessionId) : tombstoneId(d.sessionId);
  if (d._id !== want) return `_id: a ${d.type} document's id must be ${want}, got ${d._id}`;
  return null;
}
