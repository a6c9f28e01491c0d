/**
 * The views of the embedded engine: a registry of what migrations have materialised, the
 * per-write maintenance of those views (as the doc store's observer, inside its transaction), and
 * the queries. Each view lives in its own file under `views/`.
 */
import { checkSessionSort } from '../views-common/session-sort.js';
import { rebuildDue } from '../views-common/search-stale.js';
import { readTurnsQuery } from '../views-common/turns-query.js';
import type { Statement } from 'better-sqlite3';
import type { Segment } from '../../core/active-time.js';
import type { ProjectedEntry } from '../../core/documents.js';
import {
  SEARCH_STALE,
  StoreInputError,
  VIEW_NAMES,
  VIEW_RESHAPES,
  ViewMissingError,
  type DayActivity,
  type EventRow,
  type Page,
  type SearchResult,
  type SearchQuery,
  type SessionFilter,
  type SessionRow,
  type SessionSort,
  type SessionTurnRow,
  type TurnRow,
  type TurnsQuery,
  type ViewName,
  type ViewReshape,
  type Views,
  type WriteOptions,
  TokenTotals,
  type AnnotationRow,
  type BookmarkRow,
  type SessionSecretsRow,
} from '../contract.js';
import { filterValues, needsAnnotations, needsSecrets } from '../views-common/session-filter.js';
import type { DocWriteObserver, PreviousDoc, WrittenDoc } from './doc-write-observer.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { AnnotationsView } from './views/annotations-view.js';
import { DailyActivityView } from './views/daily-activity-view.js';
import { FILTER_INDEX_VIEWS, FilterIndexView } from './views/filter-index-view.js';
import { FullTextView } from './views/full-text-view.js';
import { NoteTextView } from './views/note-text-view.js';
import { searchWithNotes } from '../views-common/note-search.js';
import { SessionEvents } from './views/session-events.js';
import { sessionFilterSql } from './views/session-filter-sql.js';
import { facets, getSession, getSessions, listSessions, tokenTotals } from './views/session-queries.js';
import { SessionRollupView } from './views/session-rollup-view.js';
import { SessionSecretsView } from './views/session-secrets-view.js';
import { SpeakerSplitView } from './views/speaker-split-view.js';
import { StatementCache, type SqliteView } from './views/sqlite-view.js';
import { TranscriptEntriesView } from './views/transcript-entries-view.js';
import {
  checkFacet,
  checkPage,
  checkReshape,
  checkRole,
  checkViewName,
  isViewName,
} from '../views-common/view-args.js';

export class SqliteViews implements Views, DocWriteObserver {
  readonly #db: SqliteDatabase;
  readonly #cache: StatementCache;
  readonly #rollup: SessionRollupView;
  readonly #transcript: TranscriptEntriesView;
  readonly #speaker: SpeakerSplitView;
  readonly #fullText: FullTextView;
  readonly #daily: DailyActivityView;
  readonly #annotations: AnnotationsView;
  readonly #secrets: SessionSecretsView;
  readonly #notes: NoteTextView;
  readonly #events: SessionEvents;
  readonly #views: Map<ViewName, SqliteView>;
  readonly #readRegistry: Statement;
  #registry = new Set<ViewName>();
  #registryKey = '';
  /** Materialised views in VIEW_NAMES order (the rollup flushes before the daily view reads it). */
  #active: SqliteView[] = [];
  /** The views this write transaction maintains: all active ones, but search when it is deferred. */
  #maintained: SqliteView[] = [];

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#cache = new StatementCache(db);
    this.#rollup = new SessionRollupView(db);
    this.#transcript = new TranscriptEntriesView(db);
    this.#speaker = new SpeakerSplitView(db);
    this.#fullText = new FullTextView(db);
    this.#daily = new DailyActivityView(db);
    this.#annotations = new AnnotationsView(db);
    this.#secrets = new SessionSecretsView(db);
    this.#notes = new NoteTextView(db);
    this.#events = new SessionEvents(db);
    const all: SqliteView[] = [
      this.#rollup,
      ...FILTER_INDEX_VIEWS.map((name) => new FilterIndexView(db, name)),
      this.#transcript,
      this.#speaker,
      this.#fullText,
      this.#daily,
      this.#annotations,
      this.#secrets,
      this.#notes,
    ];
    this.#views = new Map(all.map((v) => [v.name, v]));
    this.#readRegistry = db.prepare('SELECT name FROM view_registry ORDER BY name');
    this.#syncRegistry();
  }

  // -- registry ---------------------------------------------------------------------------------

  async materialized(): Promise<ViewName[]> {
    this.#syncRegistry();
    return VIEW_NAMES.filter((n) => this.#registry.has(n));
  }

  async materialize(name: ViewName): Promise<void> {
    const view = this.#view(name);
    this.#syncRegistry();
    if (this.#registry.has(name)) return;
    if (view.requires && !this.#registry.has(view.requires)) throw new ViewMissingError(view.requires);
    try {
      this.#db
        .transaction(() => {
          view.drop(); // leftovers of an unregistered view are never trusted
          view.create();
          view.build();
          if (view === this.#fullText) this.#searchCaughtUp();
          this.#db
            .prepare('INSERT OR REPLACE INTO view_registry (name, materialized_at) VALUES (?, ?)')
            .run(name, new Date().toISOString());
        })
        .immediate();
    } catch (err) {
      view.reset?.();
      throw err;
    }
    this.#syncRegistry();
  }

  async reshape(reshape: ViewReshape, direction: 'up' | 'down'): Promise<void> {
    const name = VIEW_RESHAPES[checkReshape(reshape, direction)];
    this.#syncRegistry();
    if (!this.#registry.has(name)) return;
    const view = this.#view(name);
    try {
      this.#db.transaction(() => view.reshape!(reshape, direction)).immediate();
    } finally {
      this.#cache.clear(); // cached statements may name columns that changed
    }
  }

  async drop(name: ViewName): Promise<void> {
    const view = this.#view(name);
    this.#syncRegistry();
    const dependents = [...this.#views.values()].filter(
      (v) => v.requires === name && this.#registry.has(v.name),
    );
    if (dependents.length > 0) {
      throw new StoreInputError(
        `cannot drop ${name}: ${dependents.map((v) => v.name).join(', ')} depend on it`,
      );
    }
    this.#db
      .transaction(() => {
        view.drop();
        this.#db.prepare('DELETE FROM view_registry WHERE name = ?').run(name);
      })
      .immediate();
    this.#syncRegistry();
  }

  /** A full-text index just built from every stored chunk holds what deferred writes left out. */
  #searchCaughtUp(): void {
    this.#db.prepare('DELETE FROM local_docs WHERE id = ?').run(SEARCH_STALE);
  }

  // -- maintenance (DocWriteObserver) -----------------------------------------------------------

  /**
   * Re-reads the registry (a few rows) inside every write transaction, so a write through this
   * connection maintains exactly the views that exist, even if another connection to the same
   * file materialised or dropped one meanwhile.
   */
  begin(options?: WriteOptions): void {
    this.#syncRegistry();
    this.#maintained = options?.deferSearch ? this.#active.filter((v) => v !== this.#fullText) : this.#active;
  }

  removing(prev: PreviousDoc): void {
    if (prev.type === null) return;
    for (const view of this.#maintained)
      if (view.removing && view.follows.includes(prev.type)) view.removing(prev);
  }

  added(doc: WrittenDoc): void {
    if (doc.type === null) return;
    for (const view of this.#maintained) if (view.added && view.follows.includes(doc.type)) view.added(doc);
  }

  flush(): void {
    for (const view of this.#active) view.flush?.();
  }

  reset(): void {
    for (const view of this.#active) view.reset?.();
  }

  // -- queries ----------------------------------------------------------------------------------

  async listSessions(
    filter: SessionFilter,
    page: Page,
    sort?: SessionSort,
  ): Promise<{ total: number; rows: SessionRow[] }> {
    this.#require('session_rollup');
    this.#requireFor(filter);
    const { limit, offset } = checkPage(page);
    return listSessions(this.#cache, filter ?? {}, limit, offset, checkSessionSort(sort));
  }

  async getSession(id: string): Promise<SessionRow | null> {
    this.#require('session_rollup');
    return getSession(this.#cache, id);
  }

  async getSessions(ids: string[]): Promise<SessionRow[]> {
    this.#require('session_rollup');
    return getSessions(this.#cache, ids);
  }

  async transcriptPage(
    sessionId: string,
    file: string,
    page: Page,
  ): Promise<{ total: number; entries: ProjectedEntry[] }> {
    this.#require('transcript_entries');
    const { limit, offset } = checkPage(page);
    return this.#transcript.page(sessionId, file, offset, limit);
  }

  async turns(
    sessionId: string,
    role: 'user' | 'assistant' | undefined,
    page: Page,
  ): Promise<{ total: number; turns: TurnRow[] }> {
    this.#require('speaker_split');
    checkRole(role);
    const { limit, offset } = checkPage(page);
    return this.#speaker.turns(sessionId, role, limit, offset);
  }

  async allTurns(query: TurnsQuery): Promise<{ total: number; turns: SessionTurnRow[] }> {
    this.#require('speaker_split');
    const q = readTurnsQuery(query);
    const filter = sessionFilterSql(q.sessions, 't.session_id');
    if (filter.needsRollup) this.#require('session_rollup');
    if (filter.needsAnnotations) this.#require('session_annotations');
    if (filter.needsSecrets) this.#require('session_secrets');
    return this.#speaker.allTurns(q, filter, this.#cache);
  }

  async events(sessionId: string, page: Page): Promise<{ total: number; events: EventRow[] }> {
    const { limit, offset } = checkPage(page);
    return this.#events.page(sessionId, limit, offset);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    this.#require('full_text');
    if (typeof query?.q !== 'string') throw new StoreInputError('q must be a string');
    checkPage(query);
    const filter = sessionFilterSql(query, 'e.session_id');
    if (filter.needsRollup) this.#require('session_rollup');
    if (filter.needsAnnotations) this.#require('session_annotations');
    if (filter.needsSecrets) this.#require('session_secrets');
    // Notes are searched once migration 18 has indexed them; a store before it searches entries.
    const notes = this.#registry.has('note_text') ? sessionFilterSql(query, 'n.session_id') : null;
    return searchWithNotes(
      query,
      async (page) => this.#fullText.search({ ...query, ...page }, filter, this.#cache),
      async (limit) => notes && this.#notes.search(query.q, limit, notes, this.#cache),
    );
  }

  async dailyActivity(from: string, to: string, filter: SessionFilter): Promise<DayActivity[]> {
    this.#require('daily_activity');
    this.#requireFor(filter);
    return this.#daily.query(from, to, sessionFilterSql(filter ?? {}, 'd.session_id'), this.#cache);
  }

  async reindex(): Promise<{ entries: number; sessions: number }> {
    this.#require('full_text');
    return this.#rebuildSearch(() => true)!;
  }

  async reindexBehind(deferredBefore: number): Promise<{ entries: number; sessions: number } | null> {
    this.#syncRegistry();
    if (!this.#registry.has('full_text')) return null;
    const marker = this.#db.prepare('SELECT value FROM local_docs WHERE id = ?');
    return this.#rebuildSearch(() => {
      const row = marker.get(SEARCH_STALE) as { value: string } | undefined;
      return row !== undefined && rebuildDue(JSON.parse(row.value), deferredBefore);
    });
  }

  /** Rebuilds the full-text index in one write transaction, if `needed()` says so inside it. */
  #rebuildSearch(needed: () => boolean): { entries: number; sessions: number } | null {
    try {
      return this.#db
        .transaction(() => {
          if (!needed()) return null;
          const counts = this.#fullText.reindex();
          this.#searchCaughtUp();
          return counts;
        })
        .immediate();
    } finally {
      this.#cache.clear(); // cached search statements referred to the recreated tables
    }
  }

  async facets(
    attribute: 'cwd' | 'model' | 'hostname' | 'source' | 'agent',
    filter: SessionFilter = {},
  ): Promise<Array<{ value: string; sessions: number }>> {
    this.#require('session_rollup');
    checkFacet(attribute);
    this.#requireFor(filter);
    return facets(this.#cache, attribute, filter);
  }

  async tokenTotals(filter: SessionFilter = {}): Promise<TokenTotals> {
    this.#require('session_rollup');
    this.#requireFor(filter);
    return tokenTotals(this.#cache, filter);
  }

  async annotations(ids: string[]): Promise<Map<string, AnnotationRow>> {
    this.#require('session_annotations');
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
      throw new StoreInputError('ids must be an array of strings');
    return this.#annotations.annotations(ids);
  }

  async tagFacet(filter: SessionFilter = {}): Promise<Array<{ value: string; sessions: number }>> {
    this.#require('session_annotations');
    if (sessionFilterSql(filter, 't.session_id').needsRollup) this.#require('session_rollup');
    return this.#annotations.tagFacet(filter, this.#cache);
  }

  async bookmarks(page: Page): Promise<{ total: number; bookmarks: BookmarkRow[] }> {
    this.#require('session_annotations');
    const { limit, offset } = checkPage(page);
    return this.#annotations.bookmarks(limit, offset);
  }

  async sessionSecrets(ids: string[]): Promise<Map<string, SessionSecretsRow>> {
    this.#require('session_secrets');
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
      throw new StoreInputError('ids must be an array of strings');
    return this.#secrets.secrets(ids);
  }

  /** A filter on stars, tags or notes reads the annotations view; one on secrets, theirs. */
  #requireFor(filter: SessionFilter | undefined): void {
    if (!filter) return;
    const f = filterValues(filter);
    if (needsAnnotations(f)) this.#require('session_annotations');
    if (needsSecrets(f)) this.#require('session_secrets');
  }

  // ---------------------------------------------------------------------------------------------

  #view(name: ViewName): SqliteView {
    return this.#views.get(checkViewName(name))!;
  }

  #require(name: ViewName): void {
    this.#syncRegistry();
    if (!this.#registry.has(name)) throw new ViewMissingError(name);
  }

  #syncRegistry(): void {
    const names = (this.#readRegistry.all() as Array<{ name: string }>).map((r) => r.name).filter(isViewName);
    const key = names.join(',');
    if (key === this.#registryKey) return;
    this.#registryKey = key;
    this.#registry = new Set(names);
    this.#wire();
  }

  /** Recomputes which views follow writes after the registry changed. */
  #wire(): void {
    this.#cache.clear();
    this.#active = VIEW_NAMES.filter((n) => this.#registry.has(n)).map((n) => this.#views.get(n)!);
    this.#rollup.onSession = this.#registry.has('daily_activity')
      ? (sessionId: string, activity: Segment[] | null) => this.#daily.refresh(sessionId, activity)
      : null;
  }
}
