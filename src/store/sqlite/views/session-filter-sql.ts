/**
 * `SessionFilter` → SQL conditions, shared by the session list, search and daily activity so the
 * filters mean the same everywhere. Conditions reference the rollup as `r` and the session id
 * column given by the caller; `needsRollup` tells the caller to join `session_rollup r`.
 */
import type { SessionFilter } from '../../contract.js';
import { filterValues, MAX_CHAR, needsAnnotations, needsSecrets } from '../../views-common/session-filter.js';

export interface FilterSql {
  /** Conditions to AND together (empty when nothing filters). */
  where: string[];
  params: Record<string, string | number>;
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
  const params: Record<string, string | number> = {};
  let needsRollup = false;

  for (const column of ['cwd', 'project', 'hostname', 'source', 'agent'] as const) {
    const value = f[column];
    if (value === undefined) continue;
    where.push(`r.${column} = @f_${column}`);
    params[`f_${column}`] = value;
    needsRollup = true;
  }
  if (f.model !== undefined) {
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_models WHERE model = @f_model)`);
    params.f_model = f.model;
    needsRollup = true;
  }
  if (f.fromMs !== undefined) {
    where.push('r.last_ms >= @f_from');
    params.f_from = f.fromMs;
    needsRollup = true;
  }
  if (f.toMs !== undefined) {
    where.push('r.first_ms <= @f_to');
    params.f_to = f.toMs;
    needsRollup = true;
  }
  if (f.idPrefix !== undefined) {
    // The range uses the key index; substr makes it exact.
    where.push(
      `${sessionIdColumn} >= @f_prefix AND ${sessionIdColumn} < @f_prefix_end AND substr(${sessionIdColumn}, 1, length(@f_prefix)) = @f_prefix`,
    );
    params.f_prefix = f.idPrefix;
    params.f_prefix_end = f.idPrefix + MAX_CHAR;
  }
  f.text?.forEach((word, i) => {
    // instr, not LIKE: a word is matched as written, % and _ included.
    where.push(`instr(r.list_text, @f_text${i}) > 0`);
    params[`f_text${i}`] = word;
    needsRollup = true;
  });
  if (f.starred)
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_annotations WHERE starred = 1)`);
  if (f.hasNote)
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_annotations WHERE note != '')`);
  f.tags?.forEach((tag, i) => {
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_tags WHERE tag = @f_tag${i})`);
    params[`f_tag${i}`] = tag;
  });
  if (f.hasSecrets)
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_secrets WHERE total > 0)`);
  return { where, params, needsRollup, needsAnnotations: needsAnnotations(f), needsSecrets: needsSecrets(f) };
}
