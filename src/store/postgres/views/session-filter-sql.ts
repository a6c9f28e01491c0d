/**
 * `SessionFilter` → SQL conditions with positional parameters, shared by the session list, search
 * and daily activity so the filters mean the same everywhere (the values come from
 * views-common/session-filter.ts, as in the embedded engine). Conditions reference the rollup as
 * `r` and the session id column given by the caller; `needsRollup` tells the caller to join
 * `session_rollup r`. Parameters are numbered from `$1`; callers append theirs after.
 */
import type { SessionFilter } from '../../contract.js';
import { filterValues, MAX_CHAR, needsAnnotations, needsSecrets } from '../../views-common/session-filter.js';
import { pgText } from './postgres-view.js';

export interface FilterSql {
  /** Conditions to AND together (empty when nothing filters). */
  where: string[];
  params: unknown[];
  /** Some condition reads `session_rollup r` or `session_models`. */
  needsRollup: boolean;
  /** Some condition reads the `session_annotations` view's tables. */
  needsAnnotations: boolean;
  /** Some condition reads the `session_secrets` view. */
  needsSecrets: boolean;
}

export function sessionFilterSql(filter: SessionFilter, sessionIdColumn: string): FilterSql {
  const f = filterValues(filter);
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(typeof value === 'string' ? pgText(value) : value);
    return `$${params.length}`;
  };
  let needsRollup = false;

  for (const column of ['cwd', 'project', 'hostname', 'source', 'agent'] as const) {
    const value = f[column];
    if (value === undefined) continue;
    where.push(`r.${column} = ${param(value)}`);
    needsRollup = true;
  }
  if (f.model !== undefined) {
    where.push(
      `${sessionIdColumn} IN (SELECT session_id FROM session_models WHERE model = ${param(f.model)})`,
    );
    needsRollup = true;
  }
  if (f.fromMs !== undefined) {
    where.push(`r.last_ms >= ${param(f.fromMs)}::bigint`);
    needsRollup = true;
  }
  if (f.toMs !== undefined) {
    where.push(`r.first_ms <= ${param(f.toMs)}::bigint`);
    needsRollup = true;
  }
  if (f.idPrefix !== undefined) {
    // The range uses the key index; left() makes it exact.
    const prefix = param(f.idPrefix);
    where.push(
      `${sessionIdColumn} >= ${prefix} AND ${sessionIdColumn} < ${param(f.idPrefix + MAX_CHAR)} AND left(${sessionIdColumn}, length(${prefix})) = ${prefix}`,
    );
  }
  for (const word of f.text ?? []) {
    // strpos, not LIKE: a word is matched as written, % and _ included.
    where.push(`strpos(r.list_text, ${param(word)}) > 0`);
    needsRollup = true;
  }
  if (f.starred)
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_annotations WHERE starred)`);
  if (f.hasNote)
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_annotations WHERE note <> '')`);
  for (const tag of f.tags ?? [])
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_tags WHERE tag = ${param(tag)})`);
  if (f.hasSecrets)
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_secrets WHERE total > 0)`);
  return { where, params, needsRollup, needsAnnotations: needsAnnotations(f), needsSecrets: needsSecrets(f) };
}
