/**
 * The views of the PostgreSQL engine: a registry of what migrations have materialised, per-write
 * maintenance (a `WriteBatch` the doc store drives inside each write transaction) and the queries.
 * Each view lives in its own file under `views/`, mirroring the embedded engine.
 *
 * A (re)build takes the views lock exclusively while writers hold it shared, so no write can
 * commit documents that a view being built has not seen, whichever process wrote them.
 */
import { checkSessionSort } from '../views-common/session-sort.js';
import { rebuildDue } from '../views-common/search-stale.js';
import { readTurnsQuery } from '../views-common/turns-query.js';
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
  type SessionSecretsRow,
  type BookmarkRow,
} from '../contract.js';
import { filterValues, needsAnnotations, needsSecrets } from '../views-common/session-filter.js';
import {
  checkFacet,
  checkPage,
  checkReshape,
  checkRole,
  checkViewName,
  isViewName,
  type FacetAttribute,
} from '../views-common/view-args.js';
import { LOCK, type PostgresDatabase, type Queryable } from './postgres-database.js';
import { SessionSecretsView } from './views/session-secrets-view.js';
import { AnnotationsView } from './views/annotations-view.js';
import { DailyActivityView, type DailyBatch } from './views/daily-activity-view.js';
import { FILTER_INDEX_VIEWS, FilterIndexView } from './views/filter-index-view.js';
import { FullTextView } from './views/full-text-view.js';
import { termParams } from './views/search-query.js';
import type { PostgresView, PreviousDoc, ViewBatch, WrittenDoc } from './views/postgres-view.js';
import { sessionEvents } from './views/session-events.js';
import { sessionFilterSql, type FilterSql } from './views/session-filter-sql.js';
import { NoteTextView } from './views/note-text-view.js';
import { searchWithNotes, type NoteHits } from '../views-common/note-search.js';
import { facets, getSession, getSessions, listSessions, tokenTotals } from './views/session-queries.js';
import { SessionRollupView, type RollupBatch } from './views/session-rollup-view.js';
import { SpeakerSplitView } from './views/speaker-split-view.js';
import { TranscriptEntriesView } from './views/transcript-entries-view.js';

/** The views maintenance of one write transaction, in the order the doc store wrote. */
export interface WriteBatch {
  /** Whether `removing` needs the chunk range of replaced chunks. */
  readonly needsChunkRange: boolean;
  removing(prev: PreviousDoc): void;
  added(doc: WrittenDoc): void;
  flush(): Promise<void>;
}

export class PostgresViews implements Views {
  readonly #db: PostgresDatabase;
  readonly #rollup = new SessionRollupView();
  readonly #transcript = new TranscriptEntriesView();
  readonly #speaker = new SpeakerSplitView();
  readonly #fullText = new FullTextView();
  readonly #daily = new DailyActivityView();
  readonly #annotations = new AnnotationsView();
  readonly #secrets = new SessionSecretsView();
  readonly #notes = new NoteTextView();
  readonly #views: Map<ViewName, PostgresView>;

  constructor(db: PostgresDatabase) {
    this.#db = db;
    const all: PostgresView[] = [
      this.#rollup,
      ...FILTER_INDEX_VIEWS.map((name) => new FilterIndexView(name)),
      this.#transcript,
      this.#speaker,
      this.#fullText,
      this.#daily,
      this.#annotations,
      this.#secrets,
      this.#notes,
    ];
    this.#views = new Map(all.map((v) => [v.name, v]));
  }

  // -- registry ---------------------------------------------------------------------------------

  async materialized(): Promise<ViewName[]> {
    const registry = await this.#registry(this.#db.pool);
    return VIEW_NAMES.filter((n) => registry.has(n));
  }

  async materialize(name: ViewName): Promise<void> {
    const view = this.#views.get(checkViewName(name))!;
    await this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK.views]);
      const registry = await this.#registry(client);
      if (registry.has(name)) return;
      if (view.requires && !registry.has(view.requires)) throw new ViewMissingError(view.requires);
      await view.drop(client); // leftovers of an unregistered view are never trusted
      await view.create(client);
      await view.build(client);
      if (view === this.#fullText) await searchCaughtUp(client);
      await client.query(
        `INSERT INTO view_registry (name, materialized_at) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET materialized_at = excluded.materialized_at`,
        [name, new Date().toISOString()],
      );
    });
  }

  async drop(name: ViewName): Promise<void> {
    const view = this.#views.get(checkViewName(name))!;
    await this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK.views]);
      const registry = await this.#registry(client);
      const dependents = [...this.#views.values()].filter((v) => v.requires === name && registry.has(v.name));
      if (dependents.length > 0) {
        throw new StoreInputError(
          `cannot drop ${name}: ${dependents.map((v) => v.name).join(', ')} depend on it`,
        );
      }
      await view.drop(client);
      await client.query('DELETE FROM view_registry WHERE name = $1', [name]);
    });
  }

  async reshape(reshape: ViewReshape, direction: 'up' | 'down'): Promise<void> {
    const view = this.#views.get(VIEW_RESHAPES[checkReshape(reshape, direction)])!;
    await this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK.views]);
      if ((await this.#registry(client)).has(view.name)) await view.reshape!(client, reshape, direction);
    });
  }

  // -- maintenance ------------------------------------------------------------------------------

  /**
   * The maintenance of the views that exist now, for one write transaction. Call after
   * `lockForWrite` (which holds the views lock shared), so the registry cannot change under it.
   */
  async writeBatch(client: Queryable, options?: WriteOptions): Promise<WriteBatch> {
    const registry = await this.#registry(client);
    // VIEW_NAMES order: the rollup flushes before the calendar reads what it refreshed. A write
    // that defers search leaves the full-text view out (see WriteOptions).
    const active = VIEW_NAMES.filter(
      (n) => registry.has(n) && !(options?.deferSearch && n === 'full_text'),
    ).map((n) => this.#views.get(n)!);
    const batches = new Map<ViewName, ViewBatch>();
    for (const view of active) {
      const batch = view.batch?.(client);
      if (batch) batches.set(view.name, batch);
    }
    const follows = (name: ViewName, type: string) => this.#views.get(name)!.follows.includes(type);
    return {
      needsChunkRange: active.some((v) => v.needsChunkRange),
      removing(prev) {
        if (prev.type === null) return;
        for (const [name, b] of batches) if (b.removing && follows(name, prev.type)) b.removing(prev);
      },
      added(doc) {
        if (doc.type === null) return;
        for (const [name, b] of batches) if (b.added && follows(name, doc.type)) b.added(doc);
      },
      async flush() {
        for (const [name, b] of batches) {
          await b.flush();
          const daily = batches.get('daily_activity') as DailyBatch | undefined;
          if (name === 'session_rollup' && daily) await daily.refresh((b as RollupBatch).refreshed);
        }
      },
    };
  }

  // -- queries ----------------------------------------------------------------------------------
  // A view's tables exist exactly when it is registered (both change in one transaction), so the
  // queries go straight to the tables and read the registry only to explain a missing one.

  async listSessions(
    filter: SessionFilter,
    page: Page,
    sort?: SessionSort,
  ): Promise<{ total: number; rows: SessionRow[] }> {
    const { limit, offset } = checkPage(page);
    const order = checkSessionSort(sort);
    return this.#over(withAnnotations(['session_rollup'], filter), () =>
      listSessions(this.#db.pool, filter ?? {}, limit, offset, order),
    );
  }

  async getSession(id: string): Promise<SessionRow | null> {
    return this.#over(['session_rollup'], () => getSession(this.#db.pool, id));
  }

  async getSessions(ids: string[]): Promise<SessionRow[]> {
    return this.#over(['session_rollup'], () => getSessions(this.#db.pool, ids));
  }

  async transcriptPage(
    sessionId: string,
    file: string,
    page: Page,
  ): Promise<{ total: number; entries: ProjectedEntry[] }> {
    const { limit, offset } = checkPage(page);
    return this.#over(['transcript_entries'], () =>
      this.#transcript.page(this.#db.pool, sessionId, file, offset, limit),
    );
  }

  async turns(
    sessionId: string,
    role: 'user' | 'assistant' | undefined,
    page: Page,
  ): Promise<{ total: number; turns: TurnRow[] }> {
    checkRole(role);
    const { limit, offset } = checkPage(page);
    return this.#over(['speaker_split'], () =>
      this.#speaker.turns(this.#db.pool, sessionId, role, limit, offset),
    );
  }

  async allTurns(query: TurnsQuery): Promise<{ total: number; turns: SessionTurnRow[] }> {
    const q = readTurnsQuery(query);
    const filter = sessionFilterSql(q.sessions, 't.session_id');
    const required: ViewName[] = filter.needsRollup ? ['speaker_split', 'session_rollup'] : ['speaker_split'];
    if (filter.needsAnnotations) required.push('session_annotations');
    if (filter.needsSecrets) required.push('session_secrets');
    return this.#over(required, () => this.#speaker.allTurns(this.#db.pool, q, filter));
  }

  async events(sessionId: string, page: Page): Promise<{ total: number; events: EventRow[] }> {
    const { limit, offset } = checkPage(page);
    return sessionEvents(this.#db.pool, sessionId, limit, offset);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    if (typeof query?.q !== 'string') throw new StoreInputError('q must be a string');
    checkPage(query);
    const filter = sessionFilterSql(query, 'e.session_id');
    const required: ViewName[] = filter.needsRollup ? ['full_text', 'session_rollup'] : ['full_text'];
    if (filter.needsAnnotations) required.push('session_annotations');
    if (filter.needsSecrets) required.push('session_secrets');
    if (termParams(query.q) === null) {
      // Nothing searchable: no statement runs, so say here whether search exists at all.
      await this.#require(required);
      return { total: 0, totalExact: true, hits: [] };
    }
    const notes = sessionFilterSql(query, 'n.session_id');
    return searchWithNotes(
      query,
      (page) => this.#over(required, () => this.#fullText.search(this.#db, { ...query, ...page }, filter)),
      (limit) => this.#noteHits(query.q, limit, notes),
    );
  }

  /** Note hits, or null before migration 18 made the note index (search then covers entries). */
  async #noteHits(q: string, limit: number, filter: FilterSql): Promise<NoteHits | null> {
    try {
      return await this.#notes.search(this.#db.pool, q, limit, filter);
    } catch (err) {
      if ((err as { code?: string }).code === '42P01') return null; // undefined_table
      throw err;
    }
  }

  async dailyActivity(from: string, to: string, filter: SessionFilter): Promise<DayActivity[]> {
    return this.#over(withAnnotations(['daily_activity'], filter), () =>
      this.#daily.query(this.#db.pool, from, to, sessionFilterSql(filter ?? {}, 'd.session_id')),
    );
  }

  async reindex(): Promise<{ entries: number; sessions: number }> {
    return (await this.#rebuildSearch(async (client) => {
      if (!(await this.#registry(client)).has('full_text')) throw new ViewMissingError('full_text');
      return true;
    }))!;
  }

  async reindexBehind(deferredBefore: number): Promise<{ entries: number; sessions: number } | null> {
    return this.#rebuildSearch(async (client) => {
      if (!(await this.#registry(client)).has('full_text')) return false;
      const marker = await client.query<{ value: string }>('SELECT value FROM local_docs WHERE id = $1', [
        SEARCH_STALE,
      ]);
      const value = marker.rows[0]?.value;
      return value !== undefined && rebuildDue(JSON.parse(value), deferredBefore);
    });
  }

  /**
   * Rebuilds the full-text index holding the views lock exclusively, if `needed` (asked under the
   * lock) says so.
   */
  async #rebuildSearch(
    needed: (client: Queryable) => Promise<boolean>,
  ): Promise<{ entries: number; sessions: number } | null> {
    return this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK.views]);
      if (!(await needed(client))) return null;
      const counts = await this.#fullText.reindex(client);
      await searchCaughtUp(client);
      return counts;
    });
  }

  async facets(
    attribute: FacetAttribute,
    filter: SessionFilter = {},
  ): Promise<Array<{ value: string; sessions: number }>> {
    checkFacet(attribute);
    return this.#over(withAnnotations(['session_rollup'], filter), () =>
      facets(this.#db.pool, attribute, filter),
    );
  }

  async tokenTotals(filter: SessionFilter = {}): Promise<TokenTotals> {
    return this.#over(withAnnotations(['session_rollup'], filter), () => tokenTotals(this.#db.pool, filter));
  }

  async sessionSecrets(ids: string[]): Promise<Map<string, SessionSecretsRow>> {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
      throw new StoreInputError('ids must be an array of strings');
    return this.#over(['session_secrets'], () => this.#secrets.secrets(this.#db.pool, ids));
  }

  async annotations(ids: string[]): Promise<Map<string, AnnotationRow>> {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
      throw new StoreInputError('ids must be an array of strings');
    return this.#over(['session_annotations'], () => this.#annotations.annotations(this.#db.pool, ids));
  }

  async tagFacet(filter: SessionFilter = {}): Promise<Array<{ value: string; sessions: number }>> {
    return this.#over(['session_annotations', 'session_rollup'], () =>
      this.#annotations.tagFacet(this.#db.pool, filter),
    );
  }

  async bookmarks(page: Page): Promise<{ total: number; bookmarks: BookmarkRow[] }> {
    const { limit, offset } = checkPage(page);
    return this.#over(['session_annotations'], () =>
      this.#annotations.bookmarks(this.#db.pool, limit, offset),
    );
  }

  // ---------------------------------------------------------------------------------------------

  /** Throws ViewMissingError for the first of `views` that is not materialised. */
  async #require(views: ViewName[]): Promise<void> {
    const registry = await this.#registry(this.#db.pool);
    const missing = views.find((n) => !registry.has(n));
    if (missing) throw new ViewMissingError(missing);
  }

  /** Runs a query over views' tables; a table that is not there means a view is not materialised. */
  async #over<T>(views: ViewName[], query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (err) {
      if ((err as { code?: string }).code !== '42P01') throw err; // undefined_table
      await this.#require(views);
      throw err;
    }
  }

  async #registry(q: Queryable): Promise<Set<ViewName>> {
    const { rows } = await q.query<{ name: string }>('SELECT name FROM view_registry');
    return new Set(rows.map((r) => r.name).filter(isViewName));
  }
}

/** A full-text index just built from every stored chunk holds what deferred writes left out. */
async function searchCaughtUp(q: Queryable): Promise<void> {
  await q.query('DELETE FROM local_docs WHERE id = $1', [SEARCH_STALE]);
}

/**
 * `views`, and the annotations view when the filter reads stars, tags or notes, and the secrets
 * view when it reads secrets.
 */
function withAnnotations(views: ViewName[], filter: SessionFilter | undefined): ViewName[] {
  if (!filter) return views;
  const f = filterValues(filter);
  const out = needsAnnotations(f) ? [...views, 'session_annotations' as const] : views;
  return needsSecrets(f) ? [...out, 'session_secrets'] : out;
}
