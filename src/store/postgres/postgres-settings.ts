/**
 * `CT_DATABASE_URL` (+ `CT_DATABASE_SCHEMA`) → what the PostgreSQL engine connects to. The schema
 * comes from, in order: the explicit setting, `?schema=` in the URL, `search_path` in the URL's
 * `options=-c search_path=…`, else `public`. Every connection gets that schema as its search path
 * (a startup option, so it holds on every pooled connection), which is how tests and several
 * instances share one database without seeing each other's tables.
 */
import { InvalidStoreSetting } from '../contract.js';

export interface PostgresSettings {
  /** What `pg` connects with: the URL without `schema=`, with the search path in `options`. */
  connectionString: string;
  schema: string;
  /** The URL with its password blanked, for messages. */
  display: string;
}

/** Unquoted identifiers only: the name appears in DDL, and a plain name needs no quoting rules. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function postgresSettings(url: string, schemaSetting?: string): PostgresSettings {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new InvalidStoreSetting(
      'CT_DATABASE_URL must be a URL like postgres://user:password@host:5432/database',
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new InvalidStoreSetting(`CT_DATABASE_URL must start with postgres:// (got ${u.protocol}//)`);
  }
  for (const [part, value] of [
    ['user name', u.username],
    ['password', u.password],
  ] as const) {
    try {
      decodeURIComponent(value);
    } catch {
      throw new InvalidStoreSetting(
        `CT_DATABASE_URL: the ${part} is not valid percent-encoding (write % as %25)`,
      );
    }
  }
  const fromUrl = u.searchParams.get('schema') ?? undefined;
  u.searchParams.delete('schema');
  const options = u.searchParams.get('options') ?? '';
  const fromOptions = /(?:^|\s)-c\s*search_path=("?)([^\s,"]+)\1/.exec(options)?.[2];
  const schema = nonBlank(schemaSetting) ?? nonBlank(fromUrl) ?? fromOptions ?? 'public';
  if (!IDENTIFIER.test(schema)) {
    throw new InvalidStoreSetting(
      `database schema "${schema}" (CT_DATABASE_SCHEMA, or schema= in CT_DATABASE_URL) must be a plain identifier (letters, digits, _; at most 63)`,
    );
  }
  let rest = options.replace(/(?:^|\s)-c\s*search_path=\S+/g, '').trim();
  // Index scans cost about what sequential ones do on SSDs; with PostgreSQL's spinning-disk
  // default (4) the planner scans the whole full-text table rather than use its GIN index.
  if (!/random_page_cost/.test(rest)) rest = `${rest} -c random_page_cost=1.1`.trim();
  // Our statements are short, and the planner's cost of some grows with the history: past
  // PostgreSQL's jit_above_cost (reached by the walk of a frequent word at about 3 GB) each would
  // be compiled anew, adding 7 ms to a 27 ms search. JIT pays off only for long analytic queries.
  if (!/(?:^|\s)-c\s*jit\b/.test(rest)) rest = `${rest} -c jit=off`.trim();
  u.searchParams.set('options', `${rest} -c search_path=${schema}`.trim());
  const display = new URL(u.toString());
  if (display.password) display.password = '***';
  display.searchParams.delete('options');
  return { connectionString: u.toString(), schema, display: display.toString() };
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}
