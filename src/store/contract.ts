/**
 * The store contract (DESIGN §5): written once, implemented per engine (embedded: SQLite +
 * directory; scale-out: PostgreSQL + S3). Nothing outside `src/store/<engine>/` may know which
 * engine it talks to; engines differ only through `StoreCapabilities`.
 */
import type { Readable } from 'node:stream';
import type { ProjectedEntry, SummaryDoc, TokenUsage } from '../core/documents.js';

// ---------------------------------------------------------------------------------------------
// Documents

/** A document as written by a caller: `_rev` is the revision the caller last saw, if any. */
export interface DocInput {
  _id: string;
  _rev?: string;
  [field: string]: unknown;
}

/** A stored document: always carries its current revision `<n>-<hash>`. */
export interface StoredDoc {
  _id: string;
  _rev: string;
  [field: string]: unknown;
}

export type WriteStatus = 'written' | 'unchanged' | 'conflict';

/** Per-document outcome of a bulk write; a conflict never aborts the other documents. */
export interface WriteResult {
  id: string;
  status: WriteStatus;
  /** The revision now stored (new on `written`, current on `unchanged` and `conflict`). */
  rev?: string;
  /** Why it conflicted, in words. */
  reason?: string;
}

export interface AllDocsOptions {
  /** First id to return (inclusive), CouchDB `startkey`. */
  startkey?: string;
  /** Last id to return (inclusive), CouchDB `endkey`. */
  endkey?: string;
  limit?: number;
  skip?: number;
  includeDocs?: boolean;
}

/** CouchDB `_all_docs` shape, in id order. `_local/` documents are never listed. */
export interface AllDocsResult {
  total_rows: number;
  offset: number;
  rows: Array<{ id: string; key: string; value: { rev: string }; doc?: StoredDoc }>;
}

export interface BodiesOptions {
  /** First id (inclusive); ignored when `after` is given. */
  startkey?: string;
  /** Continue after this id (exclusive): the last id of the previous page. */
  after?: string;
  /** Last id (inclusive). */
  endkey?: string;
  /** Rows per page at most. */
  limit: number;
  /** Stop once this many bytes of bodies were read (a page holds at least one row). */
  maxBytes?: number;
}

/** See `DocStore.snapshot`. */
export interface DocSnapshot {
  /** As `DocStore.bodies`, from the snapshot. */
  bodies(options: BodiesOptions): Promise<Array<{ id: string; body: Buffer }>>;
  /** Ends the snapshot; further reads fail. Idempotent. */
  close(): Promise<void>;
}

export interface Change {
  seq: number;
  id: string;
  rev: string;
  deleted: boolean;
}

/** Schema marker: the store's current migration version and the history of applied steps. */
export interface SchemaMarker {
  version: number;
  history: Array<{ version: number; name: string; direction: 'up' | 'down'; at: string }>;
}

/** How a write treats the views. */
export interface WriteOptions {
  /**
   * Leave the full-text index alone for these documents: a bulk import that rebuilds it once it
   * is done (`Views.reindex`) need not index every entry twice. The same transaction records that
   * search is behind (the local document `SEARCH_STALE`), and a reindex or a fresh
   * materialisation of `full_text` clears it.
   */
  deferSearch?: boolean;
}

/** Local document present while deferred writes are missing from the full-text index. */
export const SEARCH_STALE = '_local/search-stale';

export interface DocStore {
  get(id: string): Promise<StoredDoc | null>;
  /** Current revisions of the given ids (absent ids are omitted). */
  getRevs(ids: string[]): Promise<Map<string, string>>;
  /**
   * Writes every document in one transaction. A document whose content (all fields but `_id` and
   * `_rev`) equals what is stored is `unchanged`, whatever `_rev` it carries — so re-ingest is
   * idempotent. Otherwise an existing document is replaced only when `_rev` names its current
   * revision; a new one only when it carries no `_rev`. Anything else is a `conflict`.
   */
  bulkUpsert(docs: DocInput[]): Promise<WriteResult[]>;
  /** Deletes when `rev` is current (a tombstone stays in the change sequence). */
  delete(id: string, rev: string): Promise<WriteResult>;
  /**
   * Removes every document of one session for good (forget, DESIGN §13): the views drop their rows
   * as for a delete, and then the rows themselves go, deletion markers included, so nothing of the
   * session stays in the documents or the change sequence. Ids in `keep` (its tombstone) stay.
   */
  purgeSession(sessionId: string, keep?: string[]): Promise<{ documents: number }>;
  /** Ids of the local documents that start with `prefix`, in id order. */
  localIds(prefix: string): Promise<string[]>;
  allDocs(options?: AllDocsOptions): Promise<AllDocsResult>;
  /**
   * Live documents' stored content in id order, as UTF-8 bytes: the canonical JSON of every field
   * but `_id` and `_rev`. Export sends it on without decoding or parsing it, which is what makes a
   * bundle cheap to write; everything else reads documents through `get`/`allDocs`.
   */
  bodies(options: BodiesOptions): Promise<Array<{ id: string; body: Buffer }>>;
  /**
   * A read-only view of the documents as they were when it opened, for reads that must agree
   * with each other across many pages and awaits (export: a session written to meanwhile must
   * not come out half before, half after). Writers are never blocked by it. Hold it only as long
   * as the read takes (it keeps old row versions alive) and always `close` it.
   */
  snapshot(): Promise<DocSnapshot>;
  /** Changes after `since` in sequence order; one entry per document (its latest change). */
  changes(since: number, limit?: number): Promise<{ results: Change[]; lastSeq: number }>;
  /** Instance-local state (ingest cursors, …): never listed, never exported, no revisions. */
  getLocal<T = unknown>(id: string): Promise<T | null>;
  putLocal(id: string, value: unknown): Promise<void>;
  deleteLocal(id: string): Promise<void>;
  getSchemaMarker(): Promise<SchemaMarker | null>;
  setSchemaMarker(marker: SchemaMarker): Promise<void>;
  /**
   * Writes documents and local state in one transaction, so a killed process leaves either the
   * old state or the new one (used by ingest: chunks + summary + cursor).
   */
  commit(
    docs: DocInput[],
    locals: Array<{ id: string; value: unknown }>,
    options?: WriteOptions,
  ): Promise<WriteResult[]>;
}

// ---------------------------------------------------------------------------------------------
// Objects

export interface ObjectInfo {
  /** `<sessionId>/<name>`, e.g. `abc/transcript.jsonl`, `abc/subagents/agent-1.jsonl`. */
  key: string;
  size: number;
  mtime: string;
}

export interface PutObjectOptions {
  /**
   * Keep the first `offset` bytes of the existing object and replace the rest with the stream
   * (appending to a growing transcript). The object must already hold at least `offset` bytes.
   * Without it the whole object is replaced atomically: a reader never sees half an object.
   */
  offset?: number;
  /** Expected sha256 (hex) of the streamed bytes; on mismatch nothing is committed. */
  sha256?: string;
}

export interface PutObjectResult {
  key: string;
  size: number;
  /** sha256 (hex) of the bytes received in this call. */
  sha256: string;
}

/** Bytes `[start, end)` of a file on this machine. */
export interface FileRange {
  path: string;
  start: number;
  end: number;
}

export interface ObjectStore {
  put(
    key: string,
    body: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options?: PutObjectOptions,
  ): Promise<PutObjectResult>;
  /**
   * `put` of a local file's bytes (same `offset` rule), without hashing them: the ingest of a
   * transcript on this machine. An engine that keeps objects as files copies them in the kernel.
   * A file that holds fewer bytes than `end` fails the call and changes nothing.
   */
  putFile(
    key: string,
    source: FileRange,
    options?: { offset?: number },
  ): Promise<{ key: string; size: number }>;
  /** Streams the object or a byte range of it (`end` exclusive); null when absent. */
  get(key: string, range?: { start?: number; end?: number }): Promise<Readable | null>;
  stat(key: string): Promise<ObjectInfo | null>;
  /** Every object of one session, in key order. */
  list(sessionId: string): Promise<ObjectInfo[]>;
  /**
   * Objects of every session in key order, those after `after` (exclusive), at most `limit`:
   * a whole store listed a page at a time (export), not one request per session.
   */
  listPage(options: { after?: string; limit: number }): Promise<ObjectInfo[]>;
  delete(key: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// Views: derived tables declared by design documents and materialised by migrations.

/** Names of the views an engine can materialise; each migration materialises one. */
export const VIEW_NAMES = [
  'session_rollup',
  'sessions_by_cwd',
  'sessions_by_model',
  'sessions_by_hostname',
  'sessions_by_source',
  'sessions_by_time',
  'transcript_entries',
  'speaker_split',
  'full_text',
  'daily_activity',
  'session_annotations',
  'sessions_by_agent',
  'session_secrets',
  'note_text',
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/**
 * Changes to a materialised view's tables made after the view first shipped, each applied by one
 * numbered migration (src/migrations/012-… on) and reverted by its `down`. A view materialised
 * now is made in its newest shape, so `up` finds nothing to do there; it brings a view an older
 * version made to that shape.
 */
export const VIEW_RESHAPES = {
  /** The rollup's list text, sort columns and token split, filled from the summaries. */
  session_rollup_columns: 'session_rollup',
  /** The rollup's agent column, filled from the summaries (a summary without one: agents.ts). */
  session_rollup_agent: 'session_rollup',
  /** Each turn's time as a number, and the index the turns across sessions are read down. */
  speaker_split_times: 'speaker_split',
  /** The search index's current form (see each engine's full-text view). */
  full_text_form: 'full_text',
} as const satisfies Record<string, ViewName>;
export type ViewReshape = keyof typeof VIEW_RESHAPES;

export interface SessionFilter {
  cwd?: string;
  /**
   * The session's project, exact: the last segment of its working directory, so one name takes in
   * every directory so named (`~/a/app` and `~/b/app`).
   */
  project?: string;
  model?: string;
  hostname?: string;
  source?: string;
  /** The agent that wrote the session (`claude-code`, `codex`, `gemini`, `opencode`). */
  agent?: string;
  /** ISO; sessions whose [first, last] activity overlaps [from, to]. */
  from?: string;
  to?: string;
  /** Session id prefix. */
  idPrefix?: string;
  /**
   * Words, each found (case aside) in the session's title, project, working directory or id:
   * the session list's free-text filter (views-common/session-filter.ts, `listText`).
   */
  text?: string;
  /** Only starred sessions (needs the `session_annotations` view). */
  starred?: boolean;
  /** Sessions carrying every one of these tags. */
  tags?: string[];
  /** Only sessions with a note. */
  hasNote?: boolean;
  /** Only sessions holding likely secrets (needs the `session_secrets` view). */
  hasSecrets?: boolean;
}

/** A session's count of likely secrets, from its summary (`session_secrets`); never a secret. */
export interface SessionSecretsRow {
  sessionId: string;
  total: number;
  /** Counts by rule (`github`, `aws`, a config pattern's name…). */
  byRule: Record<string, number>;
}

/** What a session's annotation view row says (see core/annotations.ts). */
export interface AnnotationRow {
  sessionId: string;
  starred: boolean;
  tags: string[];
  note: string;
  bookmarks: number;
}

/** A bookmarked entry, across sessions (the Bookmarks page). */
export interface BookmarkRow {
  sessionId: string;
  file: string;
  index: number;
  note: string | null;
  at: string;
}

/** A row of the session rollup: the summary plus what hook events added. */
export interface SessionRow {
  summary: SummaryDoc;
  /** True when at least one live (non-reconstructed) hook event was recorded. */
  hookRecorded: boolean;
  /** Timestamp of the SessionEnd event, if any. */
  endedAt: string | null;
  endReason: string | null;
  /** Latest activity over transcript entries and events. */
  lastActivity: string | null;
  firstActivity: string | null;
  /** Activity segments over transcript entries and events (see core/active-time.ts). */
  activity: Array<[number, number]>;
  eventCount: number;
}

export interface Page {
  limit: number;
  offset: number;
}

export interface TurnRow {
  index: number;
  file: string;
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  model?: string;
}

/** A turn of the cross-session view (`allTurns`): whose session it is, besides the turn. */
export interface SessionTurnRow extends TurnRow {
  sessionId: string;
}

/**
 * What the cross-session view reads: one side or both, the sessions `SessionFilter` selects, and
 * `from`/`to` bounding the turns' own timestamps (a turn without one is left out by a bound).
 */
export interface TurnsQuery extends SessionFilter, Page {
  role?: 'user' | 'assistant';
}

export interface SearchQuery extends SessionFilter, Page {
  /** Words, "phrases" and prefix* terms; all must match. */
  q: string;
}

export interface SearchHit {
  /**
   * What matched: an entry's text, a session's note (`file` '' and `index` -1: it belongs to no
   * entry), or a bookmark's note (on the entry at `file` and `index`).
   */
  kind: 'entry' | 'note' | 'bookmark';
  sessionId: string;
  file: string;
  index: number;
  /** The entry's role; `note` or `bookmark` for a note's hit. */
  role: string;
  timestamp: string | null;
  /** Snippet split into plain-text segments; `mark` segments matched the query. */
  snippet: Array<{ text: string; mark: boolean }>;
  rank: number;
}

export interface SearchResult {
  /** How many entries match; a lower bound when `totalExact` is false. */
  total: number;
  /**
   * False when the engine stopped counting: there are more matches than `total`. Only an
   * unfiltered search with more matches than its ranking window reports this (PostgreSQL, whose
   * exact count of a common word means visiting every matching row; see rank-window.ts).
   */
  totalExact: boolean;
  hits: SearchHit[];
}

export interface DayActivity {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  sessionId: string;
  project: string | null;
  /** Active time that day with every gap over the activity floor left out (see `activity`). */
  activeMs: number;
  entries: number;
  /**
   * The session's activity segments (as in its rollup), from which the API derives each day's
   * active time at the configured idle threshold, as it derives a session's.
   */
  activity: Array<[number, number]>;
}

export interface EventRow {
  id: string;
  event: string;
  timestamp: string;
  reconstructed: boolean;
  toolName?: string;
  success?: boolean;
}

/** The orders the session list can be read in (see views-common/session-sort.ts). */
export const SESSION_SORT_KEYS = ['lastActivity', 'startedAt', 'runtime', 'tokens', 'entries'] as const;
export type SessionSortKey = (typeof SESSION_SORT_KEYS)[number];
export const SORT_DIRECTIONS = ['desc', 'asc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export interface SessionSort {
  by: SessionSortKey;
  dir: SortDirection;
}

/** Newest activity first: the list's order when none is asked for. */
export const DEFAULT_SESSION_SORT: SessionSort = { by: 'lastActivity', dir: 'desc' };

export interface Views {
  /** Views currently materialised (by migrations). */
  materialized(): Promise<ViewName[]>;
  /** Creates a view's tables/indexes and builds it from the stored documents. Idempotent. */
  materialize(name: ViewName): Promise<void>;
  /** Removes a view's tables/indexes. Idempotent. */
  drop(name: ViewName): Promise<void>;
  /**
   * Applies (`up`) or reverts (`down`) one reshape of a view's tables; nothing when the view is
   * not materialised, or already in that shape. Idempotent.
   */
  reshape(reshape: ViewReshape, direction: 'up' | 'down'): Promise<void>;

  /** The filtered sessions, a page of them in `sort`'s order (default: newest activity first). */
  listSessions(
    filter: SessionFilter,
    page: Page,
    sort?: SessionSort,
  ): Promise<{ total: number; rows: SessionRow[] }>;
  getSession(id: string): Promise<SessionRow | null>;
  /** The sessions among `ids` that exist, in id order (one query, however many ids). */
  getSessions(ids: string[]): Promise<SessionRow[]>;
  transcriptPage(
    sessionId: string,
    file: string,
    page: Page,
  ): Promise<{ total: number; entries: ProjectedEntry[] }>;
  turns(
    sessionId: string,
    role: 'user' | 'assistant' | undefined,
    page: Page,
  ): Promise<{ total: number; turns: TurnRow[] }>;
  /**
   * Turns across sessions, newest first (by time, then session and entry, both descending; a turn
   * whose timestamp is missing or not a time last, and outside any range).
   */
  allTurns(query: TurnsQuery): Promise<{ total: number; turns: SessionTurnRow[] }>;
  events(sessionId: string, page: Page): Promise<{ total: number; events: EventRow[] }>;
  /**
   * Entries, session notes and bookmark notes matching `query.q`, ranked together (notes once
   * `note_text` is materialised).
   */
  search(query: SearchQuery): Promise<SearchResult>;
  dailyActivity(from: string, to: string, filter: SessionFilter): Promise<DayActivity[]>;
  /** Rebuilds the full-text index from the stored chunks; returns how many entries it indexed. */
  reindex(): Promise<{ entries: number; sessions: number }>;
  /**
   * Rebuilds the full-text index as `reindex` does if it waits for a rebuild nobody else will make
   * (views-common/search-stale.ts's `rebuildDue`): an earlier version made it in an older form,
   * or an import deferred writes to it and has renewed that since no later than `deferredBefore`
   * (epoch ms). Decided under the lock the rebuild takes, so of several processes one rebuilds;
   * null when there was nothing to rebuild or the full-text view is not materialised.
   */
  reindexBehind(deferredBefore: number): Promise<{ entries: number; sessions: number } | null>;
  /**
   * Distinct values of a filter attribute with session counts (for the UI's pickers), counted over
   * the sessions `filter` selects, the attribute's own filter aside: under `model=x` the model
   * facet still lists every model of the sessions the other filters select. A session with two
   * models counts once for each.
   */
  facets(
    attribute: 'cwd' | 'model' | 'hostname' | 'source' | 'agent',
    filter?: SessionFilter,
  ): Promise<Array<{ value: string; sessions: number }>>;
  /** The tokens of the sessions `filter` selects, by model (most tokens first). */
  tokenTotals(filter?: SessionFilter): Promise<TokenTotals>;
  /** The annotations of those of `ids` that have one (`session_annotations`). */
  annotations(ids: string[]): Promise<Map<string, AnnotationRow>>;
  /**
   * The secret counts of those of `ids` whose summary has them (`session_secrets`); a session
   * ingested before secrets were counted has none.
   */
  sessionSecrets(ids: string[]): Promise<Map<string, SessionSecretsRow>>;
  /** Tags with the number of sessions `filter` selects that carry each, most used first. */
  tagFacet(filter?: SessionFilter): Promise<Array<{ value: string; sessions: number }>>;
  /** Every bookmarked entry, newest bookmark first. */
  bookmarks(page: Page): Promise<{ total: number; bookmarks: BookmarkRow[] }>;
}

/** What `Views.tokenTotals` answers. */
export interface TokenTotals {
  /** Sessions the filter selects. */
  sessions: number;
  /**
   * Each model's tokens over them, and how many of them it wrote in; `model` null for the tokens
   * of sessions whose split by model is unknown (summarised before it was kept, several models).
   */
  byModel: Array<{ model: string | null; sessions: number; tokens: TokenUsage }>;
}

// ---------------------------------------------------------------------------------------------

/** Engine differences, as flags (never `if (engine === …)` outside src/store). */
export interface StoreCapabilities {
  engine: string;
  /** Several processes may share this store (needs the migration lock). */
  multiProcess: boolean;
  /**
   * Whether an unfiltered search counts every match. When false, a word with more matches than
   * the ranking window gets `totalExact: false` and the window's size as its total.
   */
  exactSearchTotals: boolean;
}

export interface Store {
  docs: DocStore;
  objects: ObjectStore;
  views: Views;
  capabilities: StoreCapabilities;
  /** Runs `fn` holding the store-wide migration lock (a no-op lock for a single-process engine). */
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T>;
  /** Counts for health. */
  stats(): Promise<{ documents: number; sessions: number; objects: number; objectBytes: number }>;
  close(): Promise<void>;
}

export type { TokenUsage };

/** Thrown by engines for bad object keys or malformed requests; the API maps it to 400. */
export class StoreInputError extends Error {
  override name = 'StoreInputError';
}

/** Thrown when a required view is not materialised (a migration is pending); the API maps it to 503. */
export class ViewMissingError extends Error {
  override name = 'ViewMissingError';
  constructor(readonly view: ViewName) {
    super(`view ${view} is not materialised: run \`transcripts migrate up\``);
  }
}

/**
 * The store cannot open with the settings it was given (an unreachable database, a missing bucket,
 * refused credentials). The message names the setting to change.
 */
export class StoreConfigError extends Error {
  override name = 'StoreConfigError';
}

/** A store setting that is not valid at all (a malformed URL, a bad flag): the CLI exits 2 for it. */
export class InvalidStoreSetting extends StoreConfigError {
  override name = 'InvalidStoreSetting';
}
