/**
 * The filter views (`sessions_by_cwd`, `_by_model`, `_by_hostname`, `_by_source`, `_by_time`, `_by_agent`) are
 * only indexes over the rollup tables: every session query works without them, just by scanning
 * the rollup. Each index ends in the list order (last activity, newest first) so a filtered page
 * is read in order without sorting.
 */
import type { ViewName } from '../../contract.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import type { SqliteView } from './sqlite-view.js';

const INDEXES = {
  sessions_by_cwd: 'session_rollup (cwd, last_ms DESC, session_id)',
  sessions_by_model: 'session_models (model, session_id)',
  sessions_by_hostname: 'session_rollup (hostname, last_ms DESC, session_id)',
  sessions_by_source: 'session_rollup (source, last_ms DESC, session_id)',
  sessions_by_time: 'session_rollup (last_ms DESC, session_id)',
  sessions_by_agent: 'session_rollup (agent, last_ms DESC, session_id)',
} as const;

export type FilterIndexName = keyof typeof INDEXES;

export const FILTER_INDEX_VIEWS = Object.keys(INDEXES) as FilterIndexName[];

export class FilterIndexView implements SqliteView {
  readonly requires: ViewName = 'session_rollup';
  readonly follows = [];
  readonly #db: SqliteDatabase;

  constructor(
    db: SqliteDatabase,
    readonly name: FilterIndexName,
  ) {
    this.#db = db;
  }

  create(): void {
    this.#db.exec(`CREATE INDEX IF NOT EXISTS ${this.name} ON ${INDEXES[this.name]}`);
  }

  drop(): void {
    this.#db.exec(`DROP INDEX IF EXISTS ${this.name}`);
  }

  build(): void {
    // An index is filled by CREATE INDEX itself.
  }
}
