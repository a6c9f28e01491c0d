/**
 * The bundle manifest: what a bundle holds and how to check it. Validated at the edge with zod
 * (STYLE habit 4); the format name and version are checked first, on their own, so a bundle
 * from a future format is refused with "upgrade transcripts" rather than a list of odd fields.
 */
import { z } from 'zod';
import { describeZodError } from '../core/documents.js';
import { objectKeyProblem } from '../core/object-key.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, DOCS_FILE, objectKeyOfBlobPath } from './format.js';

const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 timestamp');
const count = z.number().int().nonnegative();
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');

export const manifestFileSchema = z.object({ bytes: count, sha256: sha256Hex });
export type ManifestFile = z.infer<typeof manifestFileSchema>;

export const manifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  formatVersion: z.number().int().positive(),
  createdAt: iso,
  /** The source store's schema version (its migration marker) when the bundle was taken. */
  schemaVersion: z.number().int().nonnegative(),
  source: z.object({
    /** The API the bundle was read from. */
    url: z.string(),
    /** The transcripts version the source instance reported. */
    version: z.string(),
    /** The transcripts version of the CLI that wrote the bundle. */
    exportedBy: z.string(),
  }),
  /** What was asked for: `since` and `sessions` as given (null = no filter), `blobs` false for --no-blobs. */
  selection: z.object({
    since: iso.nullable(),
    sessions: z.array(z.string()).nullable(),
    blobs: z.boolean(),
  }),
  counts: z.object({
    sessions: count,
    documents: count,
    documentsByType: z.record(z.string(), count),
    objects: count,
    objectBytes: count,
  }),
  /** Every session with at least one document in the bundle, sorted. */
  sessions: z.array(z.string()),
  /** Bundle-relative path → size and sha256 of every file but the manifest itself. */
  files: z.record(z.string(), manifestFileSchema),
  /** Sessions whose documents name objects the source did not have (exported without them). */
  missingObjects: z.array(z.object({ sessionId: z.string(), names: z.array(z.string()) })),
});
export type Manifest = z.infer<typeof manifestSchema>;

export type ManifestProblemKind = 'not-json' | 'unknown-format' | 'future-format' | 'invalid';

/**
 * A manifest that lists no files: all the specification requires of one is the schema version
 * the bundle was taken at. Import reads the rest from the bundle itself, with nothing to verify
 * the files against.
 */
export interface MinimalManifest {
  schemaVersion: number;
}

const minimalManifestSchema = z.object({ schemaVersion: z.number().int().nonnegative() });

export type ParseManifestResult =
  | { ok: true; manifest: Manifest; minimal?: undefined }
  | { ok: true; minimal: MinimalManifest; manifest?: undefined }
  | { ok: false; kind: ManifestProblemKind; message: string };

/** Parses and checks `manifest.json` text; never throws. */
export function parseManifest(text: string): ParseManifestResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      kind: 'not-json',
      message: `manifest.json is not valid JSON (${(err as Error).message})`,
    };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, kind: 'invalid', message: 'manifest.json must hold a JSON object' };
  const { format, formatVersion, files } = raw as Record<string, unknown>;
  // A minimal manifest may leave the format out; one that names a format must name ours.
  if (format !== BUNDLE_FORMAT && !(format === undefined && files === undefined))
    return {
      ok: false,
      kind: 'unknown-format',
      message: `manifest.json names format ${JSON.stringify(format ?? null)}, not "${BUNDLE_FORMAT}": this is not a transcripts bundle`,
    };
  if (
    (formatVersion !== undefined || files !== undefined) &&
    (typeof formatVersion !== 'number' || !Number.isInteger(formatVersion) || formatVersion < 1)
  )
    return {
      ok: false,
      kind: 'invalid',
      message: `manifest.json: formatVersion must be a positive integer, got ${JSON.stringify(formatVersion ?? null)}`,
    };
  if (typeof formatVersion === 'number' && formatVersion > BUNDLE_FORMAT_VERSION)
    return {
      ok: false,
      kind: 'future-format',
      message:
        `the bundle uses format version ${formatVersion}, newer than this transcripts reads (up to ${BUNDLE_FORMAT_VERSION}); ` +
        'upgrade transcripts to import it',
    };
  if (files === undefined) {
    const minimal = minimalManifestSchema.safeParse(raw);
    if (!minimal.success)
      return { ok: false, kind: 'invalid', message: describeZodError(minimal.error, 'manifest') };
    return { ok: true, minimal: { schemaVersion: minimal.data.schemaVersion } };
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, kind: 'invalid', message: describeZodError(parsed.error, 'manifest') };
  const problem = manifestConsistencyProblem(parsed.data);
  if (problem) return { ok: false, kind: 'invalid', message: `manifest: ${problem}` };
  return { ok: true, manifest: parsed.data };
}

/**
 * Cross-field checks: the file list names only `docs.ndjson` and safe blob paths (a manifest must
 * never lead import outside the bundle directory), and the counts agree with it.
 */
export function manifestConsistencyProblem(m: Manifest): string | null {
  if (!m.files[DOCS_FILE]) return `files must list ${DOCS_FILE}`;
  const sessions = new Set(m.sessions);
  let objects = 0;
  let objectBytes = 0;
  for (const [path, info] of Object.entries(m.files)) {
    if (path === DOCS_FILE) continue;
    const key = objectKeyOfBlobPath(path);
    if (key === null)
      return `files: unexpected entry "${path}" (only ${DOCS_FILE} and blobs/<sessionId>/<name>)`;
    const problem = objectKeyProblem(key);
    if (problem) return `files: "${path}": ${problem}`;
    const sessionId = key.slice(0, key.indexOf('/'));
    if (!sessions.has(sessionId))
      return `files: "${path}" belongs to session ${sessionId}, which the manifest does not list`;
    objects++;
    objectBytes += info.bytes;
  }
  if (objects !== m.counts.objects)
    return `counts.objects is ${m.counts.objects} but files lists ${objects} objects`;
  if (objectBytes !== m.counts.objectBytes)
    return `counts.objectBytes is ${m.counts.objectBytes} but the listed objects hold ${objectBytes} bytes`;
  if (sessions.size !== m.sessions.length) return 'sessions lists a session twice';
  if (m.counts.sessions !== m.sessions.length)
    return `counts.sessions is ${m.counts.sessions} but sessions lists ${m.sessions.length}`;
  const byType = Object.values(m.counts.documentsByType).reduce((a, b) => a + b, 0);
  if (byType !== m.counts.documents)
    return `counts.documentsByType adds up to ${byType}, not counts.documents (${m.counts.documents})`;
  return null;
}

/** Stable JSON for the manifest file: two-space indented, files sorted by path. */
export function serializeManifest(m: Manifest): string {
  const files = Object.fromEntries(Object.entries(m.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ ...m, files }, null, 2)}\n`;
}
